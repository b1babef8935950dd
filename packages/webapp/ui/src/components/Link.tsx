import type { ReactNode } from 'react';
import { onLinkClick } from '../router.js';

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a href={to} onClick={onLinkClick} className={className}>
      {children}
    </a>
  );
}
