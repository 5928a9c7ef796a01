/** The little of a parsed XML element that the SAML code reads. */
export interface XmlElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}

/** Parses XML and evaluates namespaced XPath over it. */
export interface XmlTools {
  /** The document, or undefined when it is not well-formed. */
  parse(xml: string): unknown | undefined;
  select(expression: string, node: unknown): XmlElement[];
}

// Loaded by name: the packages' own typings pull the browser DOM library into the whole project.
const XMLDOM = '@xmldom/xmldom';
const XPATH = 'xpath';

/** xmldom and xpath (the parser and XPath engine node-saml verifies with), loaded on first use. */
export async function xmlTools(namespaces: Record<string, string>): Promise<XmlTools> {
  const { DOMParser } = await import(XMLDOM);
  const xpath = await import(XPATH);
  const select = xpath.useNamespaces(namespaces);
  return {
    parse(xml) {
      let failed = false;
      const onError = () => (failed = true);
      const doc = new DOMParser({ errorHandler: { error: onError, fatalError: onError } }).parseFromString(xml, 'text/xml');
      return failed || !doc?.documentElement ? undefined : doc;
    },
    select: (expression, node) => select(expression, node) as XmlElement[],
  };
}
