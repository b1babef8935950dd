export interface UsersTable {
  id: string;
  email: string;
  display_name: string | null;
  password_hash: string;
  site_role: string;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  /** Added after the first release: the baseline migration adds it to older tables. */
  disabled_at: string | null;
  /** Added later too (the baseline migration); 1 = must change the password at sign-in. */
  must_change_password: number;
}

export interface EndpointRolesTable {
  user_id: string;
  endpoint_id: string;
  role: string;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** Dates are stored as ISO-8601 UTC text on both dialects so comparisons are plain string comparisons. */
export interface IdentityDatabase {
  nimbus_identity_users: UsersTable;
  nimbus_identity_endpoint_roles: EndpointRolesTable;
  nimbus_identity_sessions: SessionsTable;
  nimbus_identity_login_attempts: LoginAttemptsTable;
  nimbus_identity_api_tokens: ApiTokensTable;
}

export interface LoginAttemptsTable {
  attempt_key: string;
  attempts: number;
  window_start: string;
  locked_until: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  max_role: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}
