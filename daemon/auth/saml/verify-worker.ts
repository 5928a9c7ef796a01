/**
 * Verifies SAML responses on a worker thread (verify-worker-entry.ts): parsing the XML,
 * canonicalising it and checking its RSA signature take about 30 ms per response, which must not
 * stall the event loop. The worker runs node-saml's whole validation (signature, wrapping,
 * audience, time) except InResponseTo, which needs the database and is checked by the caller.
 */
import type { Profile, SamlConfig } from '@node-saml/node-saml';
import { WorkerPool, workerFile } from '../../workers/worker-pool.js';

/** The longest one verification may take before the worker is replaced. */
export const VERIFY_TIMEOUT_MS = 5_000;

/** What a verified response says: node-saml's profile and the parsed signed assertion. */
export interface VerifiedResponse {
  profile: Profile;
  assertion: Record<string, any> | null;
  /** The Response's Destination attribute, if it has one. */
  destination: string | null;
}

/** A response the verification refused, with node-saml's reason (never a secret). */
export class SamlVerificationError extends Error {}

/** Everything node-saml needs but the request cache, which cannot cross threads. */
export type VerifyOptions = Omit<SamlConfig, 'cacheProvider' | 'generateUniqueId'>;

/** One verification, as the worker receives it. */
export interface VerifyJob {
  options: VerifyOptions;
  samlResponse: string;
}

/** The worker's answer: the verified response, or node-saml's reason for refusing it. */
export type VerifyReply = { verified: VerifiedResponse } | { error: string };

/** The SAML verification worker of one app (AppDeps.caches.saml). */
export class SamlVerifier {
  readonly #pool = new WorkerPool<VerifyJob, VerifyReply>({ entry: workerFile(import.meta.url, './verify-worker-entry.js'), size: 1 });

  /**
   * Verifies a base64 SAMLResponse under `options` on the worker. Rejects with
   * {@link SamlVerificationError} when node-saml refuses it, or a plain Error when the worker
   * fails or takes longer than VERIFY_TIMEOUT_MS.
   */
  async verify(options: VerifyOptions, samlResponse: string): Promise<VerifiedResponse> {
    const outcome = await this.#pool.run({ options, samlResponse }, { deadlineMs: VERIFY_TIMEOUT_MS });
    if (!outcome.ok) throw new Error(outcome.reason === 'timeout' ? 'SAML verification timed out' : 'the SAML verification worker stopped');
    if ('error' in outcome.value) throw new SamlVerificationError(outcome.value.error);
    return outcome.value.verified;
  }

  /** Stops the worker. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
