import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, ok } from '../../api.js';
import { AdminNav } from '../../components/AdminNav.js';
import { LabeledInput } from '../../components/LabeledInput.js';

/**
 * The scheduled heartbeat, stored in the message store: the scheduler probes every interval, and the
 * heartbeat view calls an endpoint Late once interval + timeout pass without an answer, Off after the set
 * number of missed beats.
 */
export function HeartbeatSettingsPage() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: ['heartbeat', 'settings'],
    queryFn: () => ok(api.GET('/api/heartbeat/settings')),
  });
  const [enabled, setEnabled] = useState(false);
  const [interval, setInterval] = useState('');
  const [timeout, setTimeout] = useState('');
  const [missedBeats, setMissedBeats] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.enabled);
    setInterval(String(settings.data.intervalSeconds));
    setTimeout(String(settings.data.timeoutSeconds));
    setMissedBeats(String(settings.data.missedBeatsUntilOff));
  }, [settings.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setError(null);
    try {
      const saved = await ok(
        api.PUT('/api/heartbeat/settings', {
          body: {
            enabled,
            intervalSeconds: Number(interval),
            timeoutSeconds: Number(timeout),
            missedBeatsUntilOff: Number(missedBeats),
          },
        }),
      );
      setNotice(
        `Saved: ${saved.enabled ? `a probe every ${saved.intervalSeconds} s` : 'scheduled heartbeats off'}; Late after ${
          saved.intervalSeconds + saved.timeoutSeconds
        } s without an answer, Off after ${saved.missedBeatsUntilOff} missed beats.`,
      );
      await client.invalidateQueries({ queryKey: ['heartbeat', 'settings'] });
      await client.invalidateQueries({ queryKey: ['health'] });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  const lateAfter = Number(interval) + Number(timeout);
  const beats = Number(missedBeats);

  return (
    <section>
      <h1>Administration</h1>
      <AdminNav current="/admin/heartbeat" />
      <form className="card admin-form" onSubmit={save} aria-label="heartbeat settings">
        <h2>Heartbeat settings</h2>
        <label className="checkbox">
          <input
            type="checkbox"
            name="enabled"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          Send scheduled heartbeats
        </label>
        <LabeledInput
          label="Interval (seconds, at least 30)"
          name="intervalSeconds"
          type="text"
          autoComplete="off"
          value={interval}
          onChange={setInterval}
        />
        <LabeledInput
          label="Answer timeout (seconds, 5 to the interval)"
          name="timeoutSeconds"
          type="text"
          autoComplete="off"
          value={timeout}
          onChange={setTimeout}
        />
        <LabeledInput
          label="Missed beats until Off (1 to 100)"
          name="missedBeatsUntilOff"
          type="text"
          autoComplete="off"
          value={missedBeats}
          onChange={setMissedBeats}
        />
        <p className="hint" data-testid="overdue-rule">
          {Number.isFinite(lateAfter) && lateAfter > 0 && Number.isInteger(beats) && beats >= 1
            ? `An endpoint is Late ${lateAfter} s after its last answer and Off after ${
                lateAfter + (beats - 1) * Number(interval)
              } s.`
            : 'Give whole seconds and a whole number of beats.'}
        </p>
        <button type="submit">Save</button>
        {notice && <p className="notice">{notice}</p>}
        {error && <p className="error">{error}</p>}
      </form>
    </section>
  );
}
