import { Link } from './Link.js';

const SECTIONS = [
  ['/admin/users', 'Users and roles'],
  ['/admin/audit', 'Audit log'],
  ['/admin/heartbeat', 'Heartbeat settings'],
  ['/admin/alerts', 'Alerts'],
] as const;

/** The tabs of the administration pages (site Owner; the server refuses everyone else). */
export function AdminNav({ current }: { current: string }) {
  return (
    <nav className="subnav" aria-label="administration">
      {SECTIONS.map(([to, label]) => (
        <Link key={to} to={to} className={to === current ? 'chip active' : 'chip'}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
