/** The worker of verify-worker.ts: node-saml's validation of one SAML Response per job. */
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { createRequire } from 'node:module';
import { serveWorker } from '../../workers/serve-worker.js';
import type { VerifyJob, VerifyReply } from './verify-worker.js';

// Loaded untyped: xmldom's declarations pull the browser's DOM types into the whole program.
type XmlElement = { localName: string; namespaceURI: string | null; getAttribute(name: string): string | null };
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (options: object) => { parseFromString(text: string, type: string): { documentElement: XmlElement | null } };
};

serveWorker<VerifyJob, VerifyReply>(async ({ options, samlResponse }) => {
  try {
    const root = new DOMParser({ errorHandler: {} }).parseFromString(Buffer.from(samlResponse, 'base64').toString('utf8'), 'text/xml').documentElement;
    if (root?.localName !== 'Response' || root.namespaceURI !== 'urn:oasis:names:tc:SAML:2.0:protocol') return { error: 'not a SAML Response' };
    const destination = root.getAttribute('Destination') || null;
    const saml = new SAML({ ...options, validateInResponseTo: ValidateInResponseTo.never });
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    if (!profile) return { error: 'the response holds no assertion' };
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(profile)) if (typeof value !== 'function') plain[key] = value;
    const assertion = (profile.getAssertion ? profile.getAssertion() : null) as Record<string, unknown> | null;
    return { verified: { profile: plain as VerifiedResponse['profile'], assertion, destination } };
  } catch (error) {
    return { error: String((error as Error)?.message ?? error).slice(0, 300) };
  }
});

type VerifiedResponse = Extract<VerifyReply, { verified: unknown }>['verified'];
