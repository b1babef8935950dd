// Generated from the WebApp's OpenAPI document by `npm run generate:api-types -w @nimbus/webapp`
// (every `build:ui` runs it; the file is not committed). Do not edit.
export interface paths {
    "/account/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password; sets the session and CSRF cookies (rate-limited, locks out) */
        post: operations["postAccountLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: ends the session, its live-update streams and clears the cookies */
        post: operations["postAccountLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the signed-in user’s password; other sessions and live streams of the user end */
        post: operations["postAccountChangePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user, roles and CSRF token (isAuthenticated false when signed out) */
        get: operations["getApiAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sign-in-modes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How to sign in here: local accounts, an OpenID Connect provider (Entra ID…), or both */
        get: operations["getApiAuthSignInModes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user’s API tokens (never their secrets) */
        get: operations["getApiAccountTokens"];
        put?: never;
        /** Create an API token for `Authorization: Bearer …`; the secret is in this response only */
        post: operations["postApiAccountTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the signed-in user’s API tokens; its live streams end */
        delete: operations["deleteApiAccountTokensTokenId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Endpoints the caller may read, with status counts */
        get: operations["getApiEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint: counts, metadata and the event types it produces and consumes */
        get: operations["getApiEndpointsEndpointId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending and deferred events of one session */
        get: operations["getApiEndpointsEndpointIdSessionsSessionId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/sessions/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pending and deferred events of many sessions at once */
        post: operations["postApiEndpointsEndpointIdSessionsBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/sessions/{sessionId}/blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Events waiting behind the blocking event of one session (paged) */
        get: operations["getApiEndpointsEndpointIdSessionsSessionIdBlocked"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/blocked-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sessions blocked by a failed, dead-lettered or unsupported event, with what waits behind them */
        get: operations["getApiEndpointsEndpointIdBlockedSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{input}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The transport's dead-letter list of an endpoint input (or 'Resolver'), oldest first, with reasons */
        get: operations["getApiDeadLettersInput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{input}/{deadLetterId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dead letter with its headers and body */
        get: operations["getApiDeadLettersInputDeadLetterId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{input}/requeue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Moves dead letters (the given ids, or all) back to the input, into their own sessions */
        post: operations["postApiDeadLettersInputRequeue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{input}/purge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deletes every dead letter of the input for good (Owner); the store's event rows are not touched */
        post: operations["postApiDeadLettersInputPurge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the events of an endpoint (newest update first, paged with a continuation token) */
        get: operations["getApiEndpointsEndpointIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event with its payload (the latest request that carried one) and the actions its status allows */
        get: operations["getApiEndpointsEndpointIdEventsEventId"];
        put?: never;
        post?: never;
        /** Remove an event row from the store (Contributor) */
        delete: operations["deleteApiEndpointsEndpointIdEventsEventId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The messages of the event at this endpoint, newest first */
        get: operations["getApiEndpointsEndpointIdEventsEventIdHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/audits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator audit rows of the event, newest first */
        get: operations["getApiEndpointsEndpointIdEventsEventIdAudits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the message history of every endpoint (site Reader) */
        get: operations["getApiMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search events across endpoints by payload text, status, event type, endpoint and update time (site Reader; Reader on the endpoint when one is given) */
        get: operations["getApiEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/resubmit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resubmit a failed, dead-lettered or unsupported event with its stored payload (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdResubmit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/resubmit-with-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resubmit an event with an edited payload (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdResubmitWithChanges"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Skip a failed event so its session continues (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdSkip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add an operator comment to the event, kept as a Comment audit row (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdComments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/handoff/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a pending handoff (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdHandoffComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/handoff/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fail a pending handoff with a reason (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdHandoffFail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/events/{eventId}/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a stuck Pending event Completed if it is unchanged since it was read (Contributor) */
        post: operations["postApiEndpointsEndpointIdEventsEventIdReconcile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/sessions/{sessionId}/reprocess-deferred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the endpoint to replay the deferred (parked) messages of a session (Contributor) */
        post: operations["postApiEndpointsEndpointIdSessionsSessionIdReprocessDeferred"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bulk-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The history of bulk jobs, newest first (the ones on endpoints the caller may read) */
        get: operations["getApiBulkJobs"];
        put?: never;
        /** Resubmit or skip every Failed, DeadLettered or Unsupported event a filter matches on the given endpoints, in the background (Contributor on each) */
        post: operations["postApiBulkJobs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resubmit or skip up to 1000 events given by id, in the background (Contributor) */
        post: operations["postApiEndpointsEndpointIdBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bulk-jobs/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of a bulk job */
        get: operations["getApiBulkJobsJobId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bulk-jobs/{jobId}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The events of a bulk job and what each came to (sent, refused with the reason, failed, pending) */
        get: operations["getApiBulkJobsJobIdItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bulk-jobs/{jobId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a running bulk job before its next event (Contributor on each of its endpoints) */
        post: operations["postApiBulkJobsJobIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bulk-jobs/{jobId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Continue an interrupted bulk job with the events it had not reached (Contributor on each endpoint) */
        post: operations["postApiBulkJobsJobIdResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/failure-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Failure groups across the endpoints the caller may read, newest first */
        get: operations["getApiFailureGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/failure-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Failure groups of one endpoint, newest first */
        get: operations["getApiEndpointsEndpointIdFailureGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Published, handled and failed counts per endpoint and event type (site Reader) */
        get: operations["getApiMetricsOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/latency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queue and processing latency per endpoint and event type (site Reader) */
        get: operations["getApiMetricsLatency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Published / handled / failed per time bucket (site Reader) */
        get: operations["getApiMetricsTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/endpoint-timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per endpoint and time bucket: published, handled, failed and processing time; the running bucket is marked partial (site Reader) */
        get: operations["getApiMetricsEndpointTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/failed-insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Failures grouped by error text (site Reader) */
        get: operations["getApiMetricsFailedInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heartbeat/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Latest heartbeat of every endpoint (site Reader) */
        get: operations["getApiHeartbeatOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness of the platform services such as the Resolver (site Reader) */
        get: operations["getApiHealthServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heartbeat/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Scheduled heartbeat settings (site Reader) */
        get: operations["getApiHeartbeatSettings"];
        /** Change the scheduled heartbeat (site Owner); interval at least 30 s, timeout 5 s to the interval, 1 to 100 missed beats until Off (absent: unchanged) */
        put: operations["putApiHeartbeatSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Environment, storage provider and its capabilities (fields are null when signed out) */
        get: operations["getApiAppStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/topology": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Endpoints, event types and producer → consumer routes of the platform (site Reader) */
        get: operations["getApiTopology"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operations/copy-endpoint-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Copy an endpoint’s stored events to another store (only providers with cross-account copy; site Owner) */
        post: operations["postApiOperationsCopyEndpointData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/event-types/{eventTypeId}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schema of an event type consumed or produced by the endpoint, for validating edited payloads (Reader) */
        get: operations["getApiEndpointsEndpointIdEventTypesEventTypeIdSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Local users and their roles (site Owner) */
        get: operations["getApiUsers"];
        put?: never;
        /** Create a local user (site Owner) */
        post: operations["postApiUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/site-role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a user’s site role (site Owner) */
        put: operations["putApiUsersUserIdSiteRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/endpoint-roles/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Grant (or with role None revoke) a user’s role on one endpoint (endpoint Owner) */
        put: operations["putApiUsersUserIdEndpointRolesEndpointId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Disable (sign-in refused, sessions and tokens stop working) or enable an account (site Owner) */
        put: operations["putApiUsersUserIdDisabled"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an account with its grants, sessions and API tokens (site Owner) */
        delete: operations["deleteApiUsersUserId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password for an account and end its sessions (site Owner) */
        post: operations["postApiUsersUserIdResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search audit rows by who, action, endpoint, time range and text, newest first: site Owner for all, endpoint Reader with an endpointId filter */
        get: operations["getApiAudits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alert subscriptions of every endpoint the caller may read, each with its last delivery */
        get: operations["getApiAlertSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/alert-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Subscribe a webhook (signed with a shared secret) or an e-mail address to alerts (endpoint Owner) */
        post: operations["postApiEndpointsEndpointIdAlertSubscriptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an alert subscription (endpoint Owner) */
        delete: operations["deleteApiEndpointsEndpointIdAlertSubscriptionsSubscriptionId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a test alert for the subscription; it is sent like any other (endpoint Owner) */
        post: operations["postApiEndpointsEndpointIdAlertSubscriptionsSubscriptionIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest deliveries of an alert subscription with every attempt and its error (endpoint Reader) */
        get: operations["getApiEndpointsEndpointIdAlertSubscriptionsSubscriptionIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every operation of this document as an HTML page */
        get: operations["getApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process serves requests */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: store, transport and notifier answer, migrations current */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus text exposition */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-Sent Events: hints that an endpoint, heartbeat, service or bulk job changed (only for endpoints you may read) */
        get: operations["getApiLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storagehook/endpoint/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Tells the live stream that an endpoint changed (for a Resolver in another process) */
        post: operations["postApiStoragehookEndpointId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storagehook/heartbeat/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Tells the live stream that an endpoint's heartbeat changed (for a Resolver in another process) */
        post: operations["postApiStoragehookHeartbeatId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storagehook/servicehealth/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Tells the live stream that a platform service's health changed (for a Resolver in another process) */
        post: operations["postApiStoragehookServicehealthId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    postAccountLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        isAuthenticated: boolean;
                        id: string | null;
                        email: string | null;
                        displayName: string | null;
                        siteRole: string | null;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        csrfToken: string | null;
                        /** @description how this account signs in: its password here, or the OpenID Connect provider */
                        signInMethod: ("password" | "oidc") | null;
                        /** @description true while the signed-in user still has the documented dev password (the UI shows a banner) */
                        usesDefaultPassword: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postAccountLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postAccountChangePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                    /**
                     * @description also revoke every API token of the account (default true: a changed password ends them all)
                     * @default true
                     */
                    revokeApiTokens?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        isAuthenticated: boolean;
                        id: string | null;
                        email: string | null;
                        displayName: string | null;
                        siteRole: string | null;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        csrfToken: string | null;
                        /** @description how this account signs in: its password here, or the OpenID Connect provider */
                        signInMethod: ("password" | "oidc") | null;
                        /** @description true while the signed-in user still has the documented dev password (the UI shows a banner) */
                        usesDefaultPassword: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        isAuthenticated: boolean;
                        id: string | null;
                        email: string | null;
                        displayName: string | null;
                        siteRole: string | null;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        csrfToken: string | null;
                        /** @description how this account signs in: its password here, or the OpenID Connect provider */
                        signInMethod: ("password" | "oidc") | null;
                        /** @description true while the signed-in user still has the documented dev password (the UI shows a banner) */
                        usesDefaultPassword: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAuthSignInModes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description whether e-mail and password sign-in is on */
                        localAccounts: boolean;
                        oidc: {
                            label: string;
                            /** @description navigate here (with ?returnUrl=/path) to sign in with the provider */
                            loginUrl: string;
                            /** @description navigate here after POST /account/logout to end the provider session */
                            signedOutUrl: string;
                        } | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description the token acts with at most this role; null = the user’s roles */
                        maxRole: string | null;
                        createdAt: string;
                        expiresAt: string;
                        revokedAt: string | null;
                        active: boolean;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    maxRole?: ("Reader" | "Contributor" | "Owner") | null;
                    /** @default 30 */
                    expiresInDays?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description the token acts with at most this role; null = the user’s roles */
                        maxRole: string | null;
                        createdAt: string;
                        expiresAt: string;
                        revokedAt: string | null;
                        active: boolean;
                        /** @description the secret; it cannot be shown again */
                        token: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    deleteApiAccountTokensTokenId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpointId: string;
                        /** @enum {string} */
                        status: "Healthy" | "Pending" | "Impacted" | "Failed" | "Unavailable";
                        pendingCount: number;
                        deferredCount: number;
                        failedCount: number;
                        deadletterCount: number;
                        unsupportedCount: number;
                        lastStateChangeAt: string | null;
                        error: string | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: {
                            endpointId: string;
                            /** @enum {string} */
                            status: "Healthy" | "Pending" | "Impacted" | "Failed" | "Unavailable";
                            pendingCount: number;
                            deferredCount: number;
                            failedCount: number;
                            deadletterCount: number;
                            unsupportedCount: number;
                            lastStateChangeAt: string | null;
                            error: string | null;
                        };
                        description: string | null;
                        produces: string[];
                        consumes: string[];
                        owner: string | null;
                        ownerTeam: string | null;
                        ownerEmail: string | null;
                        yourRole: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdSessionsSessionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessionId: string;
                        pendingEvents: string[];
                        deferredEvents: string[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdSessionsBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    sessionIds: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessionId: string;
                        pendingEvents: string[];
                        deferredEvents: string[];
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdSessionsSessionIdBlocked: {
        parameters: {
            query?: {
                skip?: number;
                take?: number;
            };
            header?: never;
            path: {
                endpointId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            originatingId: string;
                            eventId: string;
                            status: string;
                        }[];
                        total: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdBlockedSessions: {
        parameters: {
            query?: {
                max?: number;
            };
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessionId: string;
                        blockingEventId: string;
                        blockingStatus: string;
                        blockingErrorType: string | null;
                        blockingErrorText: string | null;
                        blockedSince: string;
                        blockedForMs: number;
                        pendingCount: number;
                        deferredCount: number;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiDeadLettersInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                input: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        input: string;
                        total: number;
                        items: {
                            id: string;
                            input: string;
                            messageId: string;
                            sessionId: string;
                            correlationId: string | null;
                            messageType: string | null;
                            eventId: string | null;
                            eventTypeId: string | null;
                            from: string | null;
                            reason: string;
                            description: string | null;
                            deliveryCount: number;
                            deadLetteredAt: string;
                            bodyBytes: number;
                            /** @description why the stored message cannot be read back (its headers are empty then); requeue leaves it */
                            unreadable: string | null;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiDeadLettersInputDeadLetterId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                input: string;
                deadLetterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        input: string;
                        messageId: string;
                        sessionId: string;
                        correlationId: string | null;
                        messageType: string | null;
                        eventId: string | null;
                        eventTypeId: string | null;
                        from: string | null;
                        reason: string;
                        description: string | null;
                        deliveryCount: number;
                        deadLetteredAt: string;
                        bodyBytes: number;
                        /** @description why the stored message cannot be read back (its headers are empty then); requeue leaves it */
                        unreadable: string | null;
                        headers: {
                            [key: string]: string;
                        };
                        body: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiDeadLettersInputRequeue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                input: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids?: string[];
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        requeued: number;
                        /** @description unreadable dead letters the request left where they are */
                        unreadableLeft: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiDeadLettersInputPurge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                input: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        purged: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdEvents: {
        parameters: {
            query?: {
                status?: string;
                eventTypeId?: string;
                eventId?: string;
                sessionId?: string;
                payload?: string;
                updatedAtFrom?: string;
                updatedAtTo?: string;
                pageSize?: number;
                continuationToken?: string;
                from?: string;
                to?: string;
                failureSignature?: string;
            };
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            endpointId: string;
                            eventId: string;
                            sessionId: string;
                            status: string;
                            eventTypeId: string | null;
                            correlationId: string | null;
                            lastMessageId: string | null;
                            originatingMessageId: string | null;
                            messageType: string;
                            from: string | null;
                            to: string | null;
                            endpointRole: string;
                            retryCount: number | null;
                            deadLetterReason: string | null;
                            deadLetterErrorDescription: string | null;
                            reason: string | null;
                            pendingSubStatus: string | null;
                            handoffReason: string | null;
                            externalJobId: string | null;
                            expectedBy: string | null;
                            queueTimeMs: number | null;
                            processingTimeMs: number | null;
                            /** @description ISO-8601 UTC timestamp */
                            enqueuedTimeUtc: string;
                            /** @description ISO-8601 UTC timestamp */
                            updatedAt: string;
                            errorContent: {
                                errorText: string;
                                errorType: string | null;
                                exceptionStackTrace: string | null;
                                exceptionSource: string | null;
                            } | null;
                            resubmitCount: number;
                        }[];
                        continuationToken: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdEventsEventId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event: {
                            endpointId: string;
                            eventId: string;
                            sessionId: string;
                            status: string;
                            eventTypeId: string | null;
                            correlationId: string | null;
                            lastMessageId: string | null;
                            originatingMessageId: string | null;
                            messageType: string;
                            from: string | null;
                            to: string | null;
                            endpointRole: string;
                            retryCount: number | null;
                            deadLetterReason: string | null;
                            deadLetterErrorDescription: string | null;
                            reason: string | null;
                            pendingSubStatus: string | null;
                            handoffReason: string | null;
                            externalJobId: string | null;
                            expectedBy: string | null;
                            queueTimeMs: number | null;
                            processingTimeMs: number | null;
                            /** @description ISO-8601 UTC timestamp */
                            enqueuedTimeUtc: string;
                            /** @description ISO-8601 UTC timestamp */
                            updatedAt: string;
                            errorContent: {
                                errorText: string;
                                errorType: string | null;
                                exceptionStackTrace: string | null;
                                exceptionSource: string | null;
                            } | null;
                        };
                        payload: string | null;
                        payloadEventTypeId: string | null;
                        allowedActions: string[];
                        blockedCount: number;
                        originalPayload: string | null;
                        producer: string | null;
                        failureSignature: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    deleteApiEndpointsEndpointIdEventsEventId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdEventsEventIdHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        eventId: string;
                        messageId: string;
                        endpointId: string;
                        messageType: string;
                        eventTypeId: string | null;
                        sessionId: string | null;
                        correlationId: string | null;
                        parentMessageId: string | null;
                        originatingMessageId: string | null;
                        from: string | null;
                        to: string | null;
                        endpointRole: string;
                        /** @description ISO-8601 UTC timestamp */
                        enqueuedTimeUtc: string;
                        retryCount: number | null;
                        deadLetterReason: string | null;
                        deadLetterErrorDescription: string | null;
                        queueTimeMs: number | null;
                        processingTimeMs: number | null;
                        eventContent: {
                            eventTypeId: string;
                            eventJson: string | null;
                        } | null;
                        errorContent: {
                            errorText: string;
                            errorType: string | null;
                            exceptionStackTrace: string | null;
                            exceptionSource: string | null;
                        } | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdEventsEventIdAudits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auditorName: string;
                        /** @description ISO-8601 UTC timestamp */
                        auditTimestamp: string;
                        auditType: string;
                        comment: string | null;
                        accessDenied: boolean;
                        data: string | null;
                        eventId: string | null;
                        endpointId: string | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMessages: {
        parameters: {
            query?: {
                endpointId?: string;
                eventId?: string;
                messageId?: string;
                sessionId?: string;
                eventTypeId?: string;
                from?: string;
                to?: string;
                messageType?: "Unknown" | "EventRequest" | "ErrorResponse" | "ResolutionResponse" | "DeferralResponse" | "SkipResponse" | "ResubmissionRequest" | "SkipRequest" | "RetryRequest" | "ContinuationRequest" | "UnsupportedResponse" | "ProcessDeferredRequest" | "PendingHandoffResponse" | "HandoffCompletedRequest" | "HandoffFailedRequest" | "RefusalResponse";
                pageSize?: number;
                continuationToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messages: {
                            eventId: string;
                            messageId: string;
                            endpointId: string;
                            messageType: string;
                            eventTypeId: string | null;
                            sessionId: string | null;
                            correlationId: string | null;
                            parentMessageId: string | null;
                            originatingMessageId: string | null;
                            from: string | null;
                            to: string | null;
                            endpointRole: string;
                            /** @description ISO-8601 UTC timestamp */
                            enqueuedTimeUtc: string;
                            retryCount: number | null;
                            deadLetterReason: string | null;
                            deadLetterErrorDescription: string | null;
                            queueTimeMs: number | null;
                            processingTimeMs: number | null;
                            eventContent: {
                                eventTypeId: string;
                                eventJson: string | null;
                            } | null;
                            errorContent: {
                                errorText: string;
                                errorType: string | null;
                                exceptionStackTrace: string | null;
                                exceptionSource: string | null;
                            } | null;
                        }[];
                        continuationToken: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEvents: {
        parameters: {
            query?: {
                endpointId?: string;
                status?: string;
                eventTypeId?: string;
                eventId?: string;
                sessionId?: string;
                /** @description text the event payload contains (case-sensitive) */
                payload?: string;
                updatedAtFrom?: string;
                updatedAtTo?: string;
                pageSize?: number;
                continuationToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            endpointId: string;
                            eventId: string;
                            sessionId: string;
                            status: string;
                            eventTypeId: string | null;
                            correlationId: string | null;
                            lastMessageId: string | null;
                            originatingMessageId: string | null;
                            messageType: string;
                            from: string | null;
                            to: string | null;
                            endpointRole: string;
                            retryCount: number | null;
                            deadLetterReason: string | null;
                            deadLetterErrorDescription: string | null;
                            reason: string | null;
                            pendingSubStatus: string | null;
                            handoffReason: string | null;
                            externalJobId: string | null;
                            expectedBy: string | null;
                            queueTimeMs: number | null;
                            processingTimeMs: number | null;
                            /** @description ISO-8601 UTC timestamp */
                            enqueuedTimeUtc: string;
                            /** @description ISO-8601 UTC timestamp */
                            updatedAt: string;
                            errorContent: {
                                errorText: string;
                                errorType: string | null;
                                exceptionStackTrace: string | null;
                                exceptionSource: string | null;
                            } | null;
                        }[];
                        continuationToken: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdResubmit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    comment?: string | null;
                    /** @default false */
                    acknowledgeOutOfOrder?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdResubmitWithChanges: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    eventJson: string;
                    eventTypeId?: string;
                    comment?: string | null;
                    /** @default false */
                    acknowledgeOutOfOrder?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdSkip: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    comment?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdComments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    comment: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdHandoffComplete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdHandoffFail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                    errorType?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdEventsEventIdReconcile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expectedLastMessageId: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdSessionsSessionIdReprocessDeferred: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: string;
                        endpointId: string;
                        eventId: string | null;
                        sessionId: string;
                        messageId: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiBulkJobs: {
        parameters: {
            query?: {
                limit?: number;
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiBulkJobs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "resubmit" | "skip";
                    endpointIds: string[];
                    filter: {
                        statuses?: ("Failed" | "DeadLettered" | "Unsupported")[];
                        eventTypeIds?: string[];
                        failureSignature?: string;
                        sessionId?: string;
                        /** Format: date-time */
                        updatedAtFrom?: string;
                        /** Format: date-time */
                        updatedAtTo?: string;
                        payload?: string;
                    };
                    comment?: string | null;
                    /** @default false */
                    acknowledgeOutOfOrder?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdBulk: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "resubmit" | "skip";
                    eventIds: string[];
                    comment?: string | null;
                    /** @default false */
                    acknowledgeOutOfOrder?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiBulkJobsJobId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiBulkJobsJobIdItems: {
        parameters: {
            query?: {
                outcome?: "pending" | "sent" | "refused" | "failed";
                offset?: number;
                limit?: number;
            };
            header?: never;
            path: {
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: {
                            jobId: string;
                            /** @enum {string} */
                            action: "resubmit" | "skip";
                            endpointId: string;
                            endpointIds: string[];
                            filter: {
                                [key: string]: unknown;
                            };
                            createdBy: string;
                            comment: string | null;
                            createdAt: string;
                            finishedAt: string | null;
                            total: number;
                            processed: number;
                            succeeded: number;
                            refused: number;
                            failed: number;
                            remaining: number;
                            errors: {
                                eventId: string;
                                message: string;
                            }[];
                            /** @enum {string} */
                            state: "running" | "completed" | "cancelled";
                            cancelRequested: boolean;
                            done: boolean;
                            interrupted: boolean;
                        };
                        items: {
                            position: number;
                            endpointId: string;
                            eventId: string;
                            sessionId: string;
                            /** @enum {string} */
                            outcome: "pending" | "sent" | "refused" | "failed";
                            message: string | null;
                            messageId: string | null;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiBulkJobsJobIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiBulkJobsJobIdResume: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobId: string;
                        /** @enum {string} */
                        action: "resubmit" | "skip";
                        endpointId: string;
                        endpointIds: string[];
                        filter: {
                            [key: string]: unknown;
                        };
                        createdBy: string;
                        comment: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        total: number;
                        processed: number;
                        succeeded: number;
                        refused: number;
                        failed: number;
                        remaining: number;
                        errors: {
                            eventId: string;
                            message: string;
                        }[];
                        /** @enum {string} */
                        state: "running" | "completed" | "cancelled";
                        cancelRequested: boolean;
                        done: boolean;
                        interrupted: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiFailureGroups: {
        parameters: {
            query?: {
                signature?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        signature: string;
                        errorType: string;
                        normalisedMessage: string;
                        endpointIds: string[];
                        eventCount: number;
                        sessionCount: number;
                        failedCount: number;
                        deadLetteredCount: number;
                        eventTypeIds: string[];
                        firstSeen: string;
                        lastSeen: string;
                        exampleErrorText: string | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdFailureGroups: {
        parameters: {
            query?: {
                signature?: string;
            };
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        signature: string;
                        errorType: string;
                        normalisedMessage: string;
                        endpointIds: string[];
                        eventCount: number;
                        sessionCount: number;
                        failedCount: number;
                        deadLetteredCount: number;
                        eventTypeIds: string[];
                        firstSeen: string;
                        lastSeen: string;
                        exampleErrorText: string | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMetricsOverview: {
        parameters: {
            query?: {
                period?: "1h" | "12h" | "1d" | "3d" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        published: {
                            endpointId: string;
                            eventTypeId: string;
                            count: number;
                        }[];
                        handled: {
                            endpointId: string;
                            eventTypeId: string;
                            count: number;
                        }[];
                        failed: {
                            endpointId: string;
                            eventTypeId: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMetricsLatency: {
        parameters: {
            query?: {
                period?: "1h" | "12h" | "1d" | "3d" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        latencies: {
                            endpointId: string;
                            eventTypeId: string;
                            queue: {
                                count: number;
                                avgMs: number;
                                minMs: number;
                                maxMs: number;
                            };
                            processing: {
                                count: number;
                                avgMs: number;
                                minMs: number;
                                maxMs: number;
                            };
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMetricsTimeseries: {
        parameters: {
            query?: {
                period?: "1h" | "12h" | "1d" | "3d" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bucketSize: string;
                        dataPoints: {
                            timestamp: string;
                            published: number;
                            handled: number;
                            failed: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMetricsEndpointTimeseries: {
        parameters: {
            query?: {
                period?: "1h" | "12h" | "1d" | "3d" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        bucketSize: "minute" | "hour" | "day";
                        bucketMs: number;
                        buckets: {
                            /** @description ISO-8601 UTC timestamp */
                            start: string;
                            /** @description ISO-8601 UTC timestamp */
                            end: string;
                            /** @description the bucket is still running: its counts cover elapsedMs of bucketMs */
                            partial: boolean;
                            elapsedMs: number;
                        }[];
                        endpoints: {
                            endpointId: string;
                            /** @description one point per bucket, in the order of buckets */
                            points: {
                                published: number;
                                handled: number;
                                failed: number;
                                /** @description null when the bucket had no outcome */
                                processingAvgMs: number | null;
                                processingMaxMs: number | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiMetricsFailedInsights: {
        parameters: {
            query?: {
                period?: "1h" | "12h" | "1d" | "3d" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        totalFailed: number;
                        groups: {
                            errorText: string;
                            count: number;
                            endpoints: string[];
                            eventTypes: string[];
                            latestOccurrence: string | null;
                            exampleEventId: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiHeartbeatOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpointId: string;
                        status: string;
                        isHeartbeatEnabled: boolean | null;
                        lastStartTime: string | null;
                        lastReceivedTime: string | null;
                        lastEndTime: string | null;
                        roundTripMs: number | null;
                        sdkVersion: string | null;
                        reportedStatus: string;
                        lastSeenAgeSeconds: number | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiHealthServices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        serviceId: string;
                        status: string;
                        version: string | null;
                        lastProbeSentUtc: string | null;
                        lastSeenUtc: string | null;
                        roundTripMs: number | null;
                        probeInFlight: boolean;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiHeartbeatSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        intervalSeconds: number;
                        timeoutSeconds: number;
                        missedBeatsUntilOff: number;
                        lastSentAtUtc: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    putApiHeartbeatSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                    intervalSeconds: number;
                    timeoutSeconds: number;
                    missedBeatsUntilOff?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        intervalSeconds: number;
                        timeoutSeconds: number;
                        missedBeatsUntilOff: number;
                        lastSentAtUtc: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAppStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: string | null;
                        version: string | null;
                        storageProvider: string | null;
                        transport: string | null;
                        capabilities: {
                            supportsCrossAccountCopy: boolean;
                        } | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiTopology: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: {
                            id: string;
                            description: string | null;
                            produces: string[];
                            consumes: string[];
                        }[];
                        eventTypes: {
                            id: string;
                            kind: string;
                            description: string | null;
                        }[];
                        routes: {
                            source: string;
                            eventTypeId: string;
                            target: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiOperationsCopyEndpointData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    endpointId: string;
                    target: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        eventsCopied: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdEventTypesEventTypeIdSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                eventTypeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        eventTypeId: string;
                        jsonSchema: {
                            [key: string]: unknown;
                        } | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        displayName: string | null;
                        siteRole: string;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        createdAt: string;
                        disabledAt: string | null;
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    displayName?: string | null;
                    password: string;
                    /**
                     * @default Reader
                     * @enum {string}
                     */
                    siteRole?: "None" | "Reader" | "Contributor" | "Owner";
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        displayName: string | null;
                        siteRole: string;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        createdAt: string;
                        disabledAt: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    putApiUsersUserIdSiteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "None" | "Reader" | "Contributor" | "Owner";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        displayName: string | null;
                        siteRole: string;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        createdAt: string;
                        disabledAt: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    putApiUsersUserIdEndpointRolesEndpointId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "None" | "Reader" | "Contributor" | "Owner";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        displayName: string | null;
                        siteRole: string;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        createdAt: string;
                        disabledAt: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    putApiUsersUserIdDisabled: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    disabled: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        displayName: string | null;
                        siteRole: string;
                        endpointRoles: {
                            endpointId: string;
                            role: string;
                        }[];
                        createdAt: string;
                        disabledAt: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    deleteApiUsersUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiUsersUserIdResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    newPassword: string;
                    /**
                     * @description also revoke every API token of the account (default true)
                     * @default true
                     */
                    revokeApiTokens?: boolean;
                };
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAudits: {
        parameters: {
            query?: {
                endpointId?: string;
                eventId?: string;
                auditorName?: string;
                auditType?: "Resubmit" | "ResubmitWithChanges" | "Skip" | "Retry" | "Comment" | "CompleteHandoff" | "FailHandoff" | "SearchEvents" | "GetEventDetails" | "GetEndpointDetails" | "EnableEndpoint" | "DisableEndpoint" | "EnableEndpointSend" | "DisableEndpointSend" | "PurgeMessages" | "Compose" | "ReportEvent" | "GrantRole" | "RevokeRole" | "ManageSubscription" | "UpdateHeartbeatSettings" | "SendHeartbeatNow" | "EnableEndpointHeartbeat" | "DisableEndpointHeartbeat" | "Reconcile" | "DeleteEvent" | "ReprocessDeferred" | "CopyEndpointData" | "Refused" | "RequeueDeadLetters" | "PurgeDeadLetters" | "AccessDenied" | "SignIn" | "SignInFailed" | "SignInLockedOut" | "SignOut" | "ChangePassword" | "CreateApiToken" | "RevokeApiToken" | "DisableUser" | "EnableUser" | "DeleteUser" | "ResetPassword";
                from?: string;
                to?: string;
                text?: string;
                pageSize?: number;
                continuationToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audits: {
                            auditorName: string;
                            /** @description ISO-8601 UTC timestamp */
                            auditTimestamp: string;
                            auditType: string;
                            comment: string | null;
                            accessDenied: boolean;
                            data: string | null;
                            eventId: string | null;
                            endpointId: string | null;
                            createdAt: string;
                        }[];
                        continuationToken: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiAlertSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mailConfigured: boolean;
                        subscriptions: {
                            id: string;
                            endpointId: string;
                            channel: string;
                            target: string;
                            triggers: string[];
                            blockedMinutes: number;
                            eventTypes: string[];
                            payload: string;
                            signed: boolean;
                            createdAt: string;
                            lastDelivery: {
                                id: string;
                                trigger: string;
                                status: string;
                                attempts: number;
                                lastError: string | null;
                                createdAt: string;
                                deliveredAt: string | null;
                                nextAttemptAt: string | null;
                                summary: string;
                                attemptLog: {
                                    attempt: number;
                                    at: string;
                                    ok: boolean;
                                    error: string | null;
                                    durationMs: number;
                                }[];
                            } | null;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdAlertSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    channel: "webhook" | "mail";
                    /** Format: uri */
                    url?: string;
                    secret?: string;
                    /** Format: email */
                    mail?: string;
                    triggers: ("NewFailureGroup" | "SessionBlocked" | "HeartbeatLost")[];
                    /** @default 15 */
                    blockedMinutes?: number;
                    /** @default [] */
                    eventTypes?: string[];
                    /** @default  */
                    payload?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        endpointId: string;
                        channel: string;
                        target: string;
                        triggers: string[];
                        blockedMinutes: number;
                        eventTypes: string[];
                        payload: string;
                        signed: boolean;
                        createdAt: string;
                        lastDelivery: {
                            id: string;
                            trigger: string;
                            status: string;
                            attempts: number;
                            lastError: string | null;
                            createdAt: string;
                            deliveredAt: string | null;
                            nextAttemptAt: string | null;
                            summary: string;
                            attemptLog: {
                                attempt: number;
                                at: string;
                                ok: boolean;
                                error: string | null;
                                durationMs: number;
                            }[];
                        } | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    deleteApiEndpointsEndpointIdAlertSubscriptionsSubscriptionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiEndpointsEndpointIdAlertSubscriptionsSubscriptionIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queued: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getApiEndpointsEndpointIdAlertSubscriptionsSubscriptionIdDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        trigger: string;
                        status: string;
                        attempts: number;
                        lastError: string | null;
                        createdAt: string;
                        deliveredAt: string | null;
                        nextAttemptAt: string | null;
                        summary: string;
                        attemptLog: {
                            attempt: number;
                            at: string;
                            ok: boolean;
                            error: string | null;
                            durationMs: number;
                        }[];
                    }[];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
        };
    };
    getApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"status":"ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready, with each check */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Not ready; checks.<name>.reason says why */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": unknown;
                };
            };
        };
    };
    getApiLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream; each event is named by its `type` and carries the update as JSON data. The stream ends when the session or token ends. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @constant */
                        type: "endpointupdate";
                        endpointId: string;
                    } | {
                        /** @constant */
                        type: "heartbeatupdate";
                        endpointId: string;
                    } | {
                        /** @constant */
                        type: "servicehealthupdate";
                        serviceId: string;
                    } | {
                        /** @constant */
                        type: "resync";
                    } | {
                        /** @constant */
                        type: "bulkprogress";
                        jobId: string;
                        endpointId: string;
                        /** @description every endpoint the job acts on: only users who may read all of them hear of it */
                        readonly endpointIds: string[];
                        processed: number;
                        total: number;
                        done: boolean;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiStoragehookEndpointId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent to the connected browsers */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiStoragehookHeartbeatId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent to the connected browsers */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    postApiStoragehookServicehealthId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent to the connected browsers */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: {
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
}
