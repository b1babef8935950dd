# One image for every NimBus service process: `nimbus resolver`, `nimbus webapp`, `nimbus store migrate`, …
# (the entrypoint is the `nimbus` CLI; the command picks the role). Built from this repository: the build stage
# compiles the workspace and packs the publishable tarballs, the runtime stage installs only those tarballs and
# the PostgreSQL driver, and runs as the unprivileged user `nimbus`.
#   docker build -t nimbus .
#   docker run --rm nimbus --help
ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Native addons (better-sqlite3, a dev dependency of the workspace) build from source when no prebuilt fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund \
  && npx tsc -b \
  && npm run build:ui -w @nimbus/webapp \
  && mkdir /tarballs \
  && for dir in packages/*/; do npm pack --silent --pack-destination /tarballs "./$dir" >/dev/null; done

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NIMBUS_STORE=postgres \
    NIMBUS_TRANSPORT=postgres \
    NIMBUS_LOG_FORMAT=json \
    NIMBUS_HOST=0.0.0.0 \
    NIMBUS_PORT=7070 \
    NIMBUS_HEALTH_HOST=0.0.0.0 \
    NIMBUS_DATA_DIR=/var/lib/nimbus
RUN groupadd --system nimbus && useradd --system --gid nimbus --home-dir /app --shell /usr/sbin/nologin nimbus \
  && mkdir -p /app /var/lib/nimbus && chown nimbus:nimbus /app /var/lib/nimbus
WORKDIR /app
COPY --from=build /tarballs /tmp/tarballs
# Only what a service runs: the CLI and its NimBus packages, the PostgreSQL driver (an optional peer), and the
# schema library platform modules import. The platform module goes to /app/platform (it resolves /app/node_modules).
RUN printf '{ "name": "nimbus-image", "private": true, "type": "module" }\n' >package.json \
  && npm install --omit=dev --no-audit --no-fund /tmp/tarballs/nimbus-cli-*.tgz \
     $(ls /tmp/tarballs/*.tgz | grep -v -e nimbus-cli- -e nimbus-testing- -e nimbus-servicebus-emulator-) \
     pg@^8.16.0 zod@^4.1.0 \
  && npm cache clean --force && rm -rf /tmp/tarballs && mkdir -p /app/platform && chown -R nimbus:nimbus /app
USER nimbus
EXPOSE 7070 9464
ENTRYPOINT ["node", "/app/node_modules/@nimbus/cli/dist/bin.js"]
CMD ["--help"]
