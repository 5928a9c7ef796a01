/**
 * Verifies SAML responses on a worker thread: parsing the XML, canonicalising it and checking
 * its RSA signature take about 30 ms per response, which must not stall the event loop. The
 * worker runs node-saml's whole validation (signature, wrapping, audience, time) except
 * InResponseTo, which needs the database and is checked by the caller.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Profile, SamlConfig } from '@node-saml/node-saml';

/** The longest one verification may take before the worker is replaced. */
export const VERIFY_TIMEOUT_MS = 5_000;

// Evaluated as a CommonJS script, so it runs alike from dist/ and from the TypeScript sources the
// test runner loads; node-saml and xmldom are required by the paths the main thread resolved.
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { SAML, ValidateInResponseTo } = require(workerData.nodeSaml);
const { DOMParser } = require(workerData.xmldom);
parentPort.on('message', async ({ id, options, samlResponse }) => {
  try {
    const root = new DOMParser({ errorHandler: {} }).parseFromString(Buffer.from(samlResponse, 'base64').toString('utf8'), 'text/xml').documentElement;
    if (!root || root.localName !== 'Response' || root.namespaceURI !== 'urn:oasis:names:tc:SAML:2.0:protocol') {
      return parentPort.postMessage({ id, error: 'not a SAML Response' });
    }
    const destination = root.getAttribute('Destination') || null;
    const saml = new SAML({ ...options, validateInResponseTo: ValidateInResponseTo.never });
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    if (!profile) return parentPort.postMessage({ id, error: 'the response holds no assertion' });
    const plain = {};
    for (const [key, value] of Object.entries(profile)) if (typeof value !== 'function') plain[key] = value;
    parentPort.postMessage({ id, profile: plain, assertion: profile.getAssertion ? profile.getAssertion() : null, destination });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error).slice(0, 300) });
  }
});
`;

/** What a verified response says: node-saml's profile and the parsed signed assertion. */
export interface VerifiedResponse {
  profile: Profile;
  assertion: Record<string, any> | null;
  /** The Response's Destination attribute, if it has one. */
  destination: string | null;
}

/** A response the verification refused, with node-saml's reason (never a secret). */
export class SamlVerificationError extends Error {}

type Pending = { resolve(value: VerifiedResponse): void; reject(error: Error): void; timer: NodeJS.Timeout };

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function spawn(): Worker {
  const resolve = createRequire(import.meta.url).resolve;
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { nodeSaml: resolve('@node-saml/node-saml'), xmldom: resolve('@xmldom/xmldom') } });
  started.on('message', (message: { id: number; profile?: Profile; assertion?: Record<string, any> | null; destination?: string | null; error?: string }) => {
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    clearTimeout(job.timer);
    if (message.error !== undefined) job.reject(new SamlVerificationError(message.error));
    else job.resolve({ profile: message.profile!, assertion: message.assertion ?? null, destination: message.destination ?? null });
    if (pending.size === 0) started.unref();
  });
  const fail = () => replace(started, new Error('the SAML verification worker stopped'));
  started.once('error', fail);
  started.once('exit', fail);
  return started;
}

/** Ends a worker and fails what it was doing; the next call starts a fresh one. */
function replace(stopped: Worker, error: Error): void {
  if (worker !== stopped) return;
  worker = undefined;
  void stopped.terminate();
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(error);
    pending.delete(id);
  }
}

/**
 * Verifies a base64 SAMLResponse under `options` (everything but the request cache, which cannot
 * cross threads) on the worker. Rejects with {@link SamlVerificationError} when node-saml
 * refuses it, or a plain Error when the worker fails or takes longer than VERIFY_TIMEOUT_MS.
 */
export function verifySamlResponse(options: Omit<SamlConfig, 'cacheProvider' | 'generateUniqueId'>, samlResponse: string): Promise<VerifiedResponse> {
  worker ??= spawn();
  const current = worker;
  current.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => replace(current, new Error('SAML verification timed out')), VERIFY_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    current.postMessage({ id, options, samlResponse });
  });
}
