import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Audit, api, ok } from '../api.js';

/** The operator's note an audit row carries (a Comment, or the optional comment of resubmit/skip). */
function commentOf(audit: Audit): string | null {
  if (audit.accessDenied || !audit.data) return null;
  try {
    const data = JSON.parse(audit.data) as { comment?: unknown };
    return typeof data.comment === 'string' && data.comment !== '' ? data.comment : null;
  } catch {
    return null;
  }
}

/** The comments on an event (from Comment rows and from actions' audit rows), and **Add comment**. */
export function EventComments({
  endpointId,
  eventId,
  audits,
}: {
  endpointId: string;
  eventId: string;
  audits: readonly Audit[];
}) {
  const client = useQueryClient();
  const [newComment, setNewComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const addComment = useMutation({
    mutationFn: (comment: string) =>
      ok(
        api.POST('/api/endpoints/{endpointId}/events/{eventId}/comments', {
          params: { path: { endpointId, eventId } },
          body: { comment },
        }),
      ),
    onSuccess: async () => {
      setNewComment('');
      setCommentError(null);
      await client.invalidateQueries({ queryKey: ['endpoint', endpointId, 'event', eventId, 'audits'] });
    },
    onError: (error) => setCommentError(error.message),
  });
  return (
    <>
      <h2>Comments</h2>
      <ul className="comments" data-testid="comments">
        {audits.flatMap((a) => {
          const comment = commentOf(a);
          if (comment === null) return [];
          return [
            <li key={`${a.auditTimestamp}-${a.auditType}-${a.auditorName}`}>
              <b>{a.auditorName}</b> <small>{new Date(a.auditTimestamp).toLocaleString()}</small>
              {a.auditType !== 'Comment' && <small> with {a.auditType}</small>}
              <p>{comment}</p>
            </li>,
          ];
        })}
      </ul>
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          if (newComment.trim() !== '') addComment.mutate(newComment.trim());
        }}
      >
        <textarea
          aria-label="new comment"
          placeholder="What did you do or find out? (for example: called the ERP team)"
          rows={2}
          maxLength={2000}
          value={newComment}
          onChange={(e) => setNewComment(e.target.value)}
        />
        <div className="actions">
          <button type="submit" disabled={newComment.trim() === '' || addComment.isPending}>
            Add comment
          </button>
          {commentError && <span className="error">{commentError}</span>}
        </div>
      </form>
    </>
  );
}
