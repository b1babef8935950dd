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
}
