import { generate } from 'selfsigned';

export interface LoopbackCertificate {
  readonly cert: string;
  readonly key: string;
}

/** A self-signed certificate for 127.0.0.1 / localhost, valid for a day, made when the test runs. */
export async function loopbackCertificate(): Promise<LoopbackCertificate> {
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'nimbus-test-idp' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
