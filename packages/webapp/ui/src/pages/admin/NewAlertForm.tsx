import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type Body, ok } from '../../api.js';
import { LabeledInput } from '../../components/LabeledInput.js';

type NewSubscription = Body<'/api/endpoints/{endpointId}/alert-subscriptions'>;
type Trigger = NewSubscription['triggers'][number];
const TRIGGERS: [Trigger, string][] = [
  ['NewFailureGroup', 'A failure group appears (one alert per group, updated as it grows, resolved)'],
  ['SessionBlocked', 'Sessions stay blocked (one alert per cause, counting the sessions)'],
  ['HeartbeatLost', 'The endpoint’s heartbeat is lost'],
  ['MonitoringThreshold', 'The input goes over a monitoring threshold'],
  ['CustomCheckFailed', 'A custom check reports unhealthy'],
];

/** A random secret made in the browser; the operator copies it to the receiver before saving. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function NewAlertForm({
  mailConfigured,
  onDone,
}: {
  mailConfigured: boolean;
  onDone: (what: string, call: () => Promise<unknown>) => Promise<void>;
}) {
  const endpoints = useQuery({ queryKey: ['endpoints'], queryFn: () => ok(api.GET('/api/endpoints')) });
  const [endpointId, setEndpointId] = useState('');
  const [channel, setChannel] = useState<'webhook' | 'mail'>('webhook');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [mail, setMail] = useState('');
  const [chosen, setChosen] = useState<Trigger[]>(['NewFailureGroup']);
  const [minutes, setMinutes] = useState('15');
  const [eventTypes, setEventTypes] = useState('');
  const [payload, setPayload] = useState('');
  const [digest, setDigest] = useState('');
  const [perHour, setPerHour] = useState('');
  const toggle = (t: Trigger) =>
    setChosen(chosen.includes(t) ? chosen.filter((c) => c !== t) : [...chosen, t]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: NewSubscription = {
      channel,
      triggers: chosen,
      blockedMinutes: Number(minutes),
      eventTypes: eventTypes
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      payload,
      ...(digest.trim() ? { digestMinutes: Number(digest) } : {}),
      ...(perHour.trim() ? { maxPerHour: Number(perHour) } : {}),
      ...(channel === 'webhook' ? { url, secret } : { mail }),
    };
    await onDone(
      `Alerts of ${endpointId} go to ${channel === 'webhook' ? 'the webhook' : mail} now.`,
      async () => {
        await ok(
          api.POST('/api/endpoints/{endpointId}/alert-subscriptions', {
            params: { path: { endpointId } },
            body,
          }),
        );
        setSecret('');
        setUrl('');
      },
    );
  };
  return (
    <form className="card admin-form" onSubmit={submit} aria-label="new alert subscription">
      <h2>New alert subscription</h2>
      <label>
        Endpoint
        <select name="alertEndpoint" value={endpointId} onChange={(e) => setEndpointId(e.target.value)}>
          <option value="">Choose…</option>
          {(endpoints.data ?? []).map((e) => (
            <option key={e.endpointId} value={e.endpointId}>
              {e.endpointId}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Alert when</legend>
        {TRIGGERS.map(([t, label]) => (
          <label key={t} className="checkbox">
            <input
              type="checkbox"
              name={`trigger-${t}`}
              checked={chosen.includes(t)}
              onChange={() => toggle(t)}
            />
            {label}
          </label>
        ))}
        {chosen.includes('SessionBlocked') && (
          <LabeledInput
            label="Blocked for at least (minutes)"
            name="blockedMinutes"
            type="text"
            autoComplete="off"
            value={minutes}
            onChange={setMinutes}
          />
        )}
      </fieldset>
      <LabeledInput
        label="Only event types (comma-separated, empty = all)"
        name="eventTypes"
        type="text"
        autoComplete="off"
        value={eventTypes}
        onChange={setEventTypes}
      />
      <LabeledInput
        label="Only failures containing"
        name="payloadFilter"
        type="text"
        autoComplete="off"
        value={payload}
        onChange={setPayload}
      />
      <LabeledInput
        label="Updates at most every (minutes, empty = 5)"
        name="digestMinutes"
        type="text"
        autoComplete="off"
        value={digest}
        onChange={setDigest}
      />
      <LabeledInput
        label="At most this many alerts per hour (empty = 30; the rest wait)"
        name="maxPerHour"
        type="text"
        autoComplete="off"
        value={perHour}
        onChange={setPerHour}
      />
      <label>
        Send to
        <select
          name="channel"
          value={channel}
          onChange={(e) => setChannel(e.target.value as 'webhook' | 'mail')}
        >
          <option value="webhook">Webhook (JSON, signed)</option>
          <option value="mail" disabled={!mailConfigured}>
            E-mail{mailConfigured ? '' : ' (SMTP is not configured)'}
          </option>
        </select>
      </label>
      {channel === 'webhook' ? (
        <>
          <LabeledInput
            label="Webhook URL"
            name="url"
            type="text"
            autoComplete="off"
            value={url}
            onChange={setUrl}
          />
          <LabeledInput
            label="Shared secret (16+ characters; shown only here)"
            name="secret"
            type="text"
            autoComplete="off"
            value={secret}
            onChange={setSecret}
          />
          <button type="button" onClick={() => setSecret(randomSecret())}>
            Generate a secret
          </button>
        </>
      ) : (
        <LabeledInput
          label="E-mail address"
          name="mail"
          type="text"
          autoComplete="off"
          value={mail}
          onChange={setMail}
        />
      )}
      <button type="submit" disabled={!endpointId || chosen.length === 0}>
        Subscribe
      </button>
    </form>
  );
}
