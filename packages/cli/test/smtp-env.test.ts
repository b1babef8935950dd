import { describe, expect, it } from 'vitest';
import { smtpFromEnv } from '../src/backends/open-alerts.js';

describe('SMTP for alert e-mails from the environment', () => {
  it('is off without a host, and reads port, From, credentials and TLS', () => {
    expect(smtpFromEnv({})).toBeUndefined();
    expect(
      smtpFromEnv({
        NIMBUS_SMTP_HOST: 'smtp.example.com',
        NIMBUS_SMTP_PORT: '465',
        NIMBUS_SMTP_FROM: 'nimbus@example.com',
        NIMBUS_SMTP_USER: 'nimbus',
        NIMBUS_SMTP_PASSWORD: 'from-the-environment',
        NIMBUS_SMTP_SECURE: 'true',
      }),
    ).toEqual({
      host: 'smtp.example.com',
      port: 465,
      from: 'nimbus@example.com',
      secure: true,
      user: 'nimbus',
      password: 'from-the-environment',
    });
  });
  it('names a bad port and a missing From address', () => {
    expect(() =>
      smtpFromEnv({ NIMBUS_SMTP_HOST: 'h', NIMBUS_SMTP_PORT: 'abc', NIMBUS_SMTP_FROM: 'a@b.c' }),
    ).toThrow(/NIMBUS_SMTP_PORT must be a port number/);
    expect(() => smtpFromEnv({ NIMBUS_SMTP_HOST: 'h' })).toThrow(/NIMBUS_SMTP_FROM/);
  });
});
