#!/usr/bin/env node
// Writes daemon/openapi/response-schemas.ts: the JSON Schema of every success answer named in
// contract/response-bodies.ts and of every request body named in contract/request-bodies.ts,
// generated from the contract's TypeScript types with the compiler's own type checker, so the
// OpenAPI document and the code can never describe two shapes.
//   node scripts/generate-response-schemas.mjs          write the file
//   node scripts/generate-response-schemas.mjs --check  exit 1 when the file is stale
// test/contract/response-schemas.test.ts fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUTPUT = join(ROOT, 'daemon/openapi/response-schemas.ts');
const ENTRY = join(ROOT, 'contract/response-bodies.ts');
const REQUEST_ENTRY = join(ROOT, 'contract/request-bodies.ts');
const CONTRACT = join(ROOT, 'contract') + sep;

/** The JSON Schemas of the contract's answers: `{ responses, components }`, components by type name. */
export function generateResponseSchemas() {
  const program = ts.createProgram([ENTRY, REQUEST_ENTRY], {
    strict: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(ENTRY);
  const requestSource = program.getSourceFile(REQUEST_ENTRY);
  const declared = (file, name) => {
    const found = file.statements.find((node) => ts.isInterfaceDeclaration(node) && node.name.text === name);
    if (!found) throw new Error(`${relative(ROOT, file.fileName)} declares no ${name}`);
    return found;
  };
  const components = new Map();

  const describe = (symbol) => ts.displayPartsToString(symbol?.getDocumentationComment(checker) ?? []).trim() || undefined;
  const inContract = (symbol) => symbol?.declarations?.some((node) => node.getSourceFile().fileName.startsWith(CONTRACT)) ?? false;

  /** The name a type has in the contract, when it is a named, non-generic interface or alias of it. */
  function nameOf(type) {
    if (type.aliasSymbol && !type.aliasTypeArguments?.length && inContract(type.aliasSymbol)) return type.aliasSymbol;
    const symbol = type.getSymbol();
    if (
      symbol &&
      symbol.flags & ts.SymbolFlags.Interface &&
      inContract(symbol) &&
      !(type.objectFlags & ts.ObjectFlags.Reference && checker.getTypeArguments(type).length)
    )
      return symbol;
    return undefined;
  }

  /** The type alias a property's written type names (`type: ChannelType`), which a resolved union may not carry. */
  function writtenAlias(node) {
    if (!node || !ts.isTypeReferenceNode(node) || node.typeArguments?.length) return undefined;
    let symbol = checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol && symbol.flags & ts.SymbolFlags.TypeAlias && inContract(symbol) ? symbol : undefined;
  }

  function schemaOf(type, named = true, alias = undefined) {
    const symbol = named ? (alias ?? nameOf(type)) : undefined;
    if (symbol) {
      const name = symbol.getName();
      if (!components.has(name)) {
        components.set(name, null);
        const schema = schemaOf(type, false);
        const description = describe(symbol);
        components.set(name, description ? { description, ...schema } : schema);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (flags & ts.TypeFlags.String) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', const: type.value };
    if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', const: type.value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: type.intrinsicName === 'true' };
    if (type.isUnion()) {
      let members = type.types.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
      const literals = (kind) => members.filter((member) => member.flags & kind);
      const booleans = literals(ts.TypeFlags.BooleanLiteral);
      const parts = [];
      if (booleans.length === 2) {
        parts.push({ type: 'boolean' });
        members = members.filter((member) => !booleans.includes(member));
      }
      const strings = literals(ts.TypeFlags.StringLiteral);
      if (strings.length > 1) {
        parts.push({ type: 'string', enum: strings.map((member) => member.value) });
        members = members.filter((member) => !strings.includes(member));
      }
      parts.push(...members.map((member) => schemaOf(member)));
      return parts.length === 1 ? parts[0] : { anyOf: parts };
    }
    if (checker.isArrayType(type)) return { type: 'array', items: schemaOf(checker.getTypeArguments(type)[0]) };
    if (checker.isTupleType(type)) {
      const items = checker.getTypeArguments(type).map((member) => schemaOf(member));
      return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
    }
    if (flags & ts.TypeFlags.Object || type.isIntersection()) {
      const properties = {};
      const required = [];
      for (const property of checker.getPropertiesOfType(type)) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        // A property as written keeps the name of its type (`state?: CheckState`), which the
        // optional's added `undefined` would lose; instantiated ones (`Page<T>.items`) are resolved.
        const written = !(property.flags & ts.SymbolFlags.Transient) && declaration && ts.isPropertySignature(declaration) && declaration.type;
        const propertyType = written ? checker.getTypeFromTypeNode(declaration.type) : checker.getTypeOfSymbol(property);
        const schema = schemaOf(propertyType, true, written ? writtenAlias(declaration.type) : undefined);
        const description = describe(property);
        properties[property.getName()] = description && !schema.$ref ? { description, ...schema } : schema;
        if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.getName());
      }
      const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
      return {
        type: 'object',
        ...(Object.keys(properties).length ? { properties } : {}),
        ...(required.length ? { required } : {}),
        ...(index ? { additionalProperties: schemaOf(index.type) } : {}),
      };
    }
    throw new Error(`no JSON Schema for the type ${checker.typeToString(type)}`);
  }

  const schemasOf = (bodies) => {
    const out = {};
    for (const member of bodies.members) {
      const symbol = checker.getSymbolAtLocation(member.name);
      out[symbol.getName()] = schemaOf(checker.getTypeOfSymbolAtLocation(symbol, member));
    }
    return out;
  };
  const responses = schemasOf(declared(source, 'ResponseBodies'));
  const requests = schemasOf(declared(requestSource, 'RequestBodies'));
  const sorted = Object.fromEntries([...components.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { responses, requests, components: sorted };
}

/** The text of daemon/openapi/response-schemas.ts. */
export function responseSchemasSource() {
  const { responses, requests, components } = generateResponseSchemas();
  const json = (value) => JSON.stringify(value, null, 2);
  return `// Generated by scripts/generate-response-schemas.mjs from ${relative(ROOT, ENTRY)} and ${relative(ROOT, REQUEST_ENTRY)}: do not edit.
// After changing a type of the contract, run \`node scripts/generate-response-schemas.mjs\`.
import type { RequestName } from '../../contract/request-bodies.js';
import type { ResponseName } from '../../contract/response-bodies.js';

type JsonSchema = Record<string, unknown>;

/** The JSON Schema of each success answer, by the name a route declares. */
export const RESPONSE_SCHEMAS: Record<ResponseName, JsonSchema> = ${json(responses)};

/** The JSON Schema of each request body a handler validates itself, by the name a route declares. */
export const REQUEST_SCHEMAS: Record<RequestName, JsonSchema> = ${json(requests)};

/** The contract's named types the answers refer to (\`#/components/schemas/<name>\`). */
export const SCHEMA_COMPONENTS: Record<string, JsonSchema> = ${json(components)};
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = responseSchemasSource();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(OUTPUT, 'utf8');
    } catch {}
    if (current !== text) {
      process.stderr.write(`${relative(ROOT, OUTPUT)} is stale: run node scripts/generate-response-schemas.mjs\n`);
      process.exit(1);
    }
  } else writeFileSync(OUTPUT, text);
}
