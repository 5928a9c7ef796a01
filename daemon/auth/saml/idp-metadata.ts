import { egressFetch, egressRefusal } from '../../../probes/egress-fetch.js';
import type { EgressPolicy } from '../../../probes/egress.js';
import { AppError, validationFailed } from '../../errors.js';
import { xmlTools } from './xml-dom.js';

/** What the service provider needs of an identity provider, read from its metadata. */
export interface IdpMetadata {
  entityId: string;
  /** The single sign-on endpoint of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Base64 bodies of its signing certificates. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
/** Metadata documents are small; anything larger is refused before it is parsed. */
export const METADATA_MAX_BYTES = 512 * 1024;

/**
 * Reads an IdP's EntityDescriptor: its entity ID, the redirect-binding SSO endpoint and the
 * certificates of its signing keys (a KeyDescriptor without `use` signs too). 400 naming what is
 * missing. No DTD or external entity is ever resolved (xmldom does not fetch).
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  const invalid = (message: string) => validationFailed([{ path: 'metadataXml', message }], 'The identity provider metadata is not valid.');
  if (xml.length > METADATA_MAX_BYTES) throw invalid(`larger than ${METADATA_MAX_BYTES / 1024} KiB`);
  if (/<!DOCTYPE/i.test(xml)) throw invalid('a document type declaration is not accepted');
  const tools = await xmlTools({ md: MD, ds: DS });
  const doc = tools.parse(xml);
  if (!doc) throw invalid('not well-formed XML');
  const select = tools.select;
  const root = select('/md:EntityDescriptor | /md:EntitiesDescriptor/md:EntityDescriptor', doc);
  if (root.length !== 1) throw invalid('expected exactly one md:EntityDescriptor');
  const entityId = root[0].getAttribute('entityID')?.trim();
  if (!entityId) throw invalid('the EntityDescriptor has no entityID');
  const idp = select('md:IDPSSODescriptor', root[0]);
  if (idp.length !== 1) throw invalid('expected one md:IDPSSODescriptor');
  const sso = select('md:SingleSignOnService', idp[0])
    .find((e) => e.getAttribute('Binding') === REDIRECT_BINDING)
    ?.getAttribute('Location')
    ?.trim();
  if (!sso || !/^https?:\/\//i.test(sso)) throw invalid('no SingleSignOnService with the HTTP-Redirect binding and an http(s) Location');
  const certificates = select('md:KeyDescriptor[not(@use) or @use="signing"]/ds:KeyInfo/ds:X509Data/ds:X509Certificate', idp[0])
    .map((e) => (e.textContent ?? '').replace(/\s+/g, ''))
    .filter((c) => /^[A-Za-z0-9+/]+=*$/.test(c));
  if (certificates.length === 0) throw invalid('no signing certificate (KeyDescriptor use="signing" with an X509Certificate)');
  return { entityId, ssoUrl: sso, certificates };
}

/**
 * Fetches metadata from an https address (10 s, 512 KiB, no redirects) through the egress policy
 * of member-given addresses. Only an organization's admins may name the address, and nothing of
 * the answer but the parsed metadata is kept or shown: no error repeats any of the document.
 */
export async function fetchIdpMetadata(egress: EgressPolicy, url: string): Promise<string> {
  if (!/^https:\/\//i.test(url)) throw validationFailed([{ path: 'metadataUrl', message: 'must be an https:// address' }]);
  let response: Response;
  try {
    response = await egressFetch(egress)(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const refused = egressRefusal(error);
    if (refused)
      throw validationFailed(
        [{ path: 'metadataUrl', message: `not fetched: ${refused}` }],
        'The identity provider metadata address is refused by the egress policy.',
      );
    throw new AppError('UPSTREAM_FAILED', 'The identity provider metadata could not be fetched.');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new AppError('UPSTREAM_FAILED', `The identity provider metadata address answered ${response.status}.`);
  }
  const text = await readCapped(response);
  if (text === undefined) throw validationFailed([{ path: 'metadataUrl', message: `the document is larger than ${METADATA_MAX_BYTES / 1024} KiB` }]);
  return text;
}

/** The body as text, or undefined (and the rest left unread) once it passes METADATA_MAX_BYTES. */
async function readCapped(response: Response): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > METADATA_MAX_BYTES) {
      await response.body.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
