import 'reflect-metadata'; // @peculiar/x509 resolves its services through tsyringe, which needs it
import { webcrypto } from 'node:crypto';

// Node's webcrypto types and the DOM's (which @peculiar/x509 is typed against, and which the test typecheck
// includes) are the same objects at run time but distinct types since @types/node 24.
type CryptoKeyPair = { readonly publicKey: never; readonly privateKey: never };

import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

export interface EmulatorCertificates {
  /** PEM of the CA that signed the server certificate: give it to clients (tlsOptions.ca, NODE_EXTRA_CA_CERTS). */
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${base64.trimEnd()}\n-----END ${label}-----\n`;
}

/** A fresh CA and a server certificate for 127.0.0.1 / localhost signed by it, valid for 30 days. */
export async function generateCertificates(
  hosts: readonly string[] = ['127.0.0.1', 'localhost'],
): Promise<EmulatorCertificates> {
  const now = Date.now();
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + 30 * 24 * 3600_000);
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    name: 'CN=nimbus-sb-emulator local CA',
    notBefore,
    notAfter,
    keys: caKeys as unknown as CryptoKeyPair,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const serverKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ])) as unknown as CryptoKeyPair;
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    subject: 'CN=nimbus-sb-emulator',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: (caKeys as unknown as CryptoKeyPair).privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        hosts.map((host) => ({
          type: /^[\d.]+$/.test(host) ? ('ip' as const) : ('dns' as const),
          value: host,
        })),
      ),
    ],
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return { caPem: ca.toString('pem'), certPem: server.toString('pem'), keyPem: pem('PRIVATE KEY', key) };
}
