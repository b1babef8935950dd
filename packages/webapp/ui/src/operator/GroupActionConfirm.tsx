import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.js';
import { type BulkJob, type FailureGroup, plural } from './bulk-types.js';

/**
 * The confirmation of a group action: it states how many events and sessions it affects, on which endpoints,
 * before anything is sent; the server then acts on every event of the group (not only what is on screen).
 */
export function GroupActionConfirm({
  group,
  action,
  onStarted,
  onCancel,
}: {
  group: FailureGroup;
  action: 'resubmit' | 'skip';
  onStarted: (job: BulkJob) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const [comment, setComment] = useState('');
  // A dead-lettered event no longer blocks its session: resubmitting it runs it after later events.
  const [outOfOrder, setOutOfOrder] = useState(false);
  const start = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/bulk-jobs', {
          body: {
            action,
            endpointIds: group.endpointIds,
            filter: { failureSignature: group.signature },
            comment: comment.trim() || null,
            acknowledgeOutOfOrder: outOfOrder,
          },
        }),
      ),
    onSuccess: (job) => {
      void client.invalidateQueries({ queryKey: ['bulk-jobs'] });
      onStarted(job);
    },
  });
  const verb = action === 'resubmit' ? 'Resubmit' : 'Skip';
  return (
    <div className="card" data-testid="confirm-group-action">
      <h2>
        {verb} {plural(group.eventCount, 'event')} in {plural(group.sessionCount, 'session')}?
      </h2>
      <p data-testid="confirm-scope">
        {verb} every event of this group: {plural(group.eventCount, 'event')} in{' '}
        {plural(group.sessionCount, 'session')} on {group.endpointIds.join(', ')}.{' '}
        {action === 'resubmit'
          ? 'Each is handled again with its stored payload; the events parked behind it follow in order.'
          : 'Each is skipped for good; its session continues with the next event.'}
      </p>
      {action === 'resubmit' && group.deadLetteredCount > 0 && (
        <label className="warn">
          <input type="checkbox" checked={outOfOrder} onChange={(e) => setOutOfOrder(e.target.checked)} />{' '}
          {plural(group.deadLetteredCount, 'event is', 'events are')} dead-lettered: they no longer hold their
          sessions, so they run after later events. Resubmit them out of order anyway (otherwise they are
          refused).
        </label>
      )}
      <textarea
        aria-label="group action comment"
        placeholder="comment for the audit (optional)"
        rows={2}
        maxLength={2000}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <div className="actions">
        <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
          Confirm {action} of {plural(group.eventCount, 'event')}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {start.error && <span className="error">{start.error.message}</span>}
      </div>
    </div>
  );
}
