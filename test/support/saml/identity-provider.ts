import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { selfSignedCertificate, tempDir } from '../local-servers.js';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** Who signs in at the identity provider, and what the test changes in the assertion. */
export interface AssertionInput {
  nameId: string;
  email?: string;
  name?: string;
  groups?: string[];
  /** The request answered; the one the IdP received when unset. */
  inResponseTo?: string;
  audience?: string;
  recipient?: string;
  /** Seconds from now (negative: already expired). */
  notOnOrAfterSeconds?: number;
  issuer?: string;
  /** What carries the signature: the assertion (default), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  /** Sign with SHA-1 instead of SHA-256. */
  weakAlgorithm?: boolean;
  /** Leave InResponseTo out of the SubjectConfirmationData (some providers do). */
  omitSubjectInResponseTo?: boolean;
}

/**
 * A SAML identity provider for the tests, built on xml-crypto (the signing library node-saml
 * verifies with): a loopback HTTP server whose `/sso` takes the service provider's
 * HTTP-Redirect AuthnRequest and remembers its ID, and which signs responses for it with its own
 * self-signed RSA key (made with Debian's openssl). `metadata()` is what an admin would paste.
 */
export class TestIdentityProvider {
  readonly entityId: string;
  private readonly key: string;
  private readonly cert: string;
  /** The IDs of the AuthnRequests received, in order. */
  readonly requests: { id: string; acsUrl: string; issuer: string }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    keys: { key: string; cert: string },
  ) {
    this.entityId = `${url}/idp`;
    this.key = keys.key;
    this.cert = keys.cert;
  }

  /** Starts the identity provider on a free loopback port. */
  static async start(): Promise<TestIdentityProvider> {
    const dir = tempDir('svc-saml-idp-');
    const files = selfSignedCertificate(dir);
    const keys = { key: readFileSync(files.key, 'utf8'), cert: readFileSync(files.cert, 'utf8') };
    let idp: TestIdentityProvider | undefined;
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://idp.invalid');
      const request = url.searchParams.get('SAMLRequest');
      if (url.pathname !== '/sso' || !request || !idp) {
        res.writeHead(404).end();
        return;
      }
      const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
      const attr = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
      const issuer = /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1] ?? '';
      idp.requests.push({ id: attr('ID'), acsUrl: attr('AssertionConsumerServiceURL'), issuer });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('sign in');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    idp = new TestIdentityProvider(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys);
    return idp;
  }

  /** The base64 body of the signing certificate. */
  get certificateBody(): string {
    return this.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  }

  /** The IdP's metadata: entity ID, redirect-binding SSO endpoint and signing certificate. */
  metadata(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.certificateBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.url}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** The assertion XML (unsigned) for the last request received, as `input` asks. */
  assertionXml(input: AssertionInput, id = `_a${randomBytes(12).toString('hex')}`): string {
    const last = this.requests.at(-1);
    const now = new Date();
    const iso = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
    const notOnOrAfter = iso(input.notOnOrAfterSeconds ?? 300);
    const inResponseTo = input.inResponseTo ?? last?.id ?? '';
    const recipient = input.recipient ?? last?.acsUrl ?? '';
    const audience = input.audience ?? last?.issuer ?? '';
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
    const attributes = [
      input.email ? attribute('email', [input.email]) : '',
      input.name ? attribute('displayName', [input.name]) : '',
      input.groups ? attribute('groups', input.groups) : '',
    ].join('');
    return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(input.notOnOrAfterSeconds !== undefined && input.notOnOrAfterSeconds < 0 ? input.notOnOrAfterSeconds - 300 : 0)}"><saml:Issuer>${input.issuer ?? this.entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escapeXml(input.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData ${input.omitSubjectInResponseTo ? '' : `InResponseTo="${inResponseTo}" `}NotOnOrAfter="${notOnOrAfter}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(-60)}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : ''}</saml:Assertion>`;
  }

  /** Signs the element with ID `id` in `xml` (enveloped, exclusive C14N), the signature after its Issuer. */
  sign(xml: string, id: string, weak = false): string {
    const signer = new SignedXml({
      privateKey: this.key,
      publicCert: this.cert,
      signatureAlgorithm: weak ? RSA_SHA1 : RSA_SHA256,
      canonicalizationAlgorithm: EXC_C14N,
    });
    const element = `//*[@ID='${id}']`;
    signer.addReference({ xpath: element, digestAlgorithm: weak ? SHA1 : SHA256, transforms: [ENVELOPED, EXC_C14N] });
    signer.computeSignature(xml, { location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
    return signer.getSignedXml();
  }

  /** A Response around `assertionXml` for the last request. */
  responseXml(assertionXml: string, input: Pick<AssertionInput, 'inResponseTo' | 'recipient'> = {}, id = `_r${randomBytes(12).toString('hex')}`): string {
    const last = this.requests.at(-1);
    return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${input.recipient ?? last?.acsUrl ?? ''}" InResponseTo="${input.inResponseTo ?? last?.id ?? ''}"><saml:Issuer>${this.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertionXml}</samlp:Response>`;
  }

  /** A complete SAMLResponse (base64) as the IdP would post it, signed as `input.sign` says. */
  response(input: AssertionInput): string {
    const assertionId = `_a${randomBytes(12).toString('hex')}`;
    let assertion = this.assertionXml(input, assertionId);
    const sign = input.sign ?? 'assertion';
    if (sign === 'assertion') assertion = this.sign(assertion, assertionId, input.weakAlgorithm);
    const responseId = `_r${randomBytes(12).toString('hex')}`;
    let response = this.responseXml(assertion, { inResponseTo: input.inResponseTo }, responseId);
    if (sign === 'response') response = this.sign(response, responseId, input.weakAlgorithm);
    return Buffer.from(response).toString('base64');
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
