import { generate } from 'selfsigned';

export interface LoopbackCertificate {
  /** PEM of the self-signed certificate; also the CA a client trusts. */
  readonly cert: string;
  readonly key: string;
}

/**
 * A self-signed certificate for 127.0.0.1, ::1 and localhost, valid from a minute ago for `validDays`.
 * Made when the server starts: the certificate bundled with the local Cosmos server has expired and
 * names no IP address, so no client that checks certificates accepts it.
 */
export async function loopbackCertificate(validDays = 7): Promise<LoopbackCertificate> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'nimbus-local-cosmos' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + validDays * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
