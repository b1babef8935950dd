import { userInfo } from 'node:os';

/** How the CLI names itself on audit rows: `cli:<OS user>`. */
export function cliAuditorName(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return `cli:${user || 'unknown'}`;
}
