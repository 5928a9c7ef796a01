// The error of a token API is shared by every source that fetches with a token.
export { HostedApiError, type UpstreamFailure } from '../shared/upstream-error.js';
