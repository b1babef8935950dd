import { describe, expect, it } from 'vitest';
import type { InputControl } from '../../transport/input-control.js';

/** A transport's control state as a case opens it; `reopen` is the same state seen by another process. */
export interface InputControlFixture {
  readonly control: InputControl;
  readonly reopen?: () => Promise<InputControl>;
}

/**
 * The same answers from every `InputControl` (the memory one, the SQL transport's, the Service Bus transport's):
 * registered as a vitest suite titled `InputControl [name]`. `open` is called by every case and must give empty
 * control state.
 */
export function describeInputControlConformance(
  name: string,
  open: () => Promise<InputControlFixture>,
): void {
  describe(`InputControl [${name}]`, () => {
    it('pauses and resumes an input (case-insensitive key, spelling kept) with who and when', async () => {
      const { control, reopen } = await open();
      expect([...(await control.pausedInputs())]).toEqual([]);
      await control.setPaused('Erp', { paused: true, by: 'Ada' });
      await control.setPaused('ERP', { paused: true, by: 'Bob' });
      expect([...(await control.pausedInputs())]).toEqual(['ERP']);
      const [state] = await control.inputStates();
      expect(state).toMatchObject({
        paused: true,
        changedBy: 'Bob',
        maxBacklog: null,
        maxCriticalTimeMs: null,
      });
      expect(Math.abs(state!.changedAt!.getTime() - Date.now())).toBeLessThan(60_000);
      // Kept across a restart of the process that set it (a new connection to the same state).
      const again = reopen ? await reopen() : control;
      expect([...(await again.pausedInputs())]).toEqual(['ERP']);
      await again.setPaused('erp', { paused: false, by: 'Ada' });
      expect([...(await control.pausedInputs())]).toEqual([]);
    });

    it('keeps thresholds apart from the pause flag; null clears one', async () => {
      const { control } = await open();
      await control.setThresholds('Billing', { maxBacklog: 10, maxCriticalTimeMs: 5_000 });
      await control.setPaused('Billing', { paused: true, by: 'Ada' });
      await control.setThresholds('Billing', { maxBacklog: null, maxCriticalTimeMs: 5_000 });
      expect(await control.inputStates()).toMatchObject([
        { input: 'Billing', paused: true, maxBacklog: null, maxCriticalTimeMs: 5_000 },
      ]);
    });

    it('replaces a check result per (endpoint, name) and lists them in order', async () => {
      const { control } = await open();
      const at = new Date('2026-01-01T00:00:00.000Z');
      await control.reportChecks('Erp', [{ name: 'db', healthy: true, reason: null, checkedAt: at }]);
      await control.reportChecks('Crm', [{ name: 'api', healthy: false, reason: 'down', checkedAt: at }]);
      await control.reportChecks('Erp', [{ name: 'db', healthy: false, reason: 'timeout', checkedAt: at }]);
      expect(await control.customChecks()).toEqual([
        { endpointId: 'Crm', name: 'api', healthy: false, reason: 'down', checkedAt: at },
        { endpointId: 'Erp', name: 'db', healthy: false, reason: 'timeout', checkedAt: at },
      ]);
    });

    it('loses no change when two processes change the same input at once', async () => {
      const { control, reopen } = await open();
      const other = reopen ? await reopen() : control;
      await Promise.all([
        control.setPaused('Erp', { paused: true, by: 'Ada' }),
        other.setThresholds('Erp', { maxBacklog: 7, maxCriticalTimeMs: null }),
        other.setPaused('Crm', { paused: true, by: 'Bob' }),
      ]);
      expect(await control.inputStates()).toMatchObject([
        { input: 'Crm', paused: true, changedBy: 'Bob' },
        { input: 'Erp', paused: true, changedBy: 'Ada', maxBacklog: 7 },
      ]);
      expect(new Set(await other.pausedInputs())).toEqual(new Set(['Crm', 'Erp']));
    });
  });
}
