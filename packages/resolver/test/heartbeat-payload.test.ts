import { parseHeartbeatPayload } from '@nimbus/resolver';
import { describe, expect, it } from 'vitest';

describe('parseHeartbeatPayload', () => {
  it('reads camelCase and PascalCase members', () => {
    const at = '2026-06-01T12:00:00.000Z';
    expect(parseHeartbeatPayload(JSON.stringify({ forwardSendTime: at, endpoint: 'Erp' }))).toMatchObject({
      forwardSendTime: new Date(at),
      endpoint: 'Erp',
    });
    expect(parseHeartbeatPayload(JSON.stringify({ ForwardSendTime: at, SdkVersion: '1.0' }))).toMatchObject({
      forwardSendTime: new Date(at),
      sdkVersion: '1.0',
    });
  });

  it('treats blank, malformed and default-dated bodies as an empty payload', () => {
    const empty = {
      forwardSendTime: null,
      forwardReceivedTime: null,
      backwardSendTime: null,
      backwardReceivedTime: null,
      endpoint: '',
      sdkVersion: '',
    };
    expect(parseHeartbeatPayload('')).toEqual(empty);
    expect(parseHeartbeatPayload('{oops')).toEqual(empty);
    expect(parseHeartbeatPayload('[1,2]')).toEqual(empty);
    expect(parseHeartbeatPayload(null)).toEqual(empty);
    expect(parseHeartbeatPayload(JSON.stringify({ forwardSendTime: '0001-01-01T00:00:00Z' }))).toEqual(empty);
  });
});
