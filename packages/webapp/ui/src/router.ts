import { useEffect, useState } from 'react';

/** A minimal history-API router: enough for a handful of pages without another dependency. */
export function navigate(to: string, notice?: string): void {
  window.history.pushState(notice ? { notice } : null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The notice the previous page left for this one (`navigate(to, notice)`), e.g. what was just deleted. */
function noticeFromNavigation(): string | null {
  const state: unknown = window.history.state;
  return state !== null && typeof state === 'object' && 'notice' in state && typeof state.notice === 'string'
    ? state.notice
    : null;
}

export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => setPath(window.location.pathname + window.location.search);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

export function onLinkClick(event: React.MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? '/');
}

/**
 * A page's notice line, starting with what the previous page left for it. The left notice is read once:
 * coming back to this history entry later does not repeat it.
 */
export function useNavigationNotice(): [string | null, (notice: string | null) => void] {
  const [notice, setNotice] = useState(noticeFromNavigation);
  useEffect(() => {
    if (noticeFromNavigation() !== null) window.history.replaceState(null, '', window.location.href);
  }, []);
  return [notice, setNotice];
}
