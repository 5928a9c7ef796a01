import type { JsonSchema } from '../api/types';
import { CheckboxField, describedBy, FieldShell } from './fields';
import { exact, humanize, idOf, isScalarSchema, parseScalar, scalarText, singular, typesOf, within, type Issues } from './schema-helpers';

export type { Issues } from './schema-helpers';

/**
 * A form generated from a JSON Schema (the catalog's config schema of a check type). Values are
 * kept as the API wants them; what a control cannot express exactly (a number typed as text,
 * broken JSON) is passed on as typed, so the server's validation names the problem.
 * Text controls are uncontrolled; a form that replaces its values (a sample, another type)
 * re-mounts them with a new `key`.
 */

type Value = unknown;

interface FieldProps {
  schema: JsonSchema;
  name: string;
  path: string[];
  value: Value;
  required: boolean;
  issues: Issues;
  onChange(value: Value): void;
}

/** The fields of an object schema. */
export function ObjectFields({
  schema,
  path,
  value,
  issues,
  onChange,
}: {
  schema: JsonSchema;
  path: string[];
  value: Record<string, Value> | undefined;
  issues: Issues;
  onChange(value: Record<string, Value>): void;
}) {
  const current = value ?? {};
  const required = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([key, child]) => (
        <SchemaField
          key={key}
          schema={child}
          name={key}
          path={[...path, key]}
          value={current[key]}
          required={required.has(key)}
          issues={issues}
          onChange={(next) => {
            const copy = { ...current };
            if (next === undefined) delete copy[key];
            else copy[key] = next;
            onChange(copy);
          }}
        />
      ))}
    </>
  );
}

/** One property of the schema, with the control its type calls for. */
export function SchemaField(props: FieldProps) {
  const { schema, name, path, value, required, issues, onChange } = props;
  const id = idOf(path);
  const label = `${schema.title ?? humanize(name)}${required ? '' : ' (optional)'}`;
  const hint = schema.description;
  const types = typesOf(schema);

  if (schema.enum) {
    const errors = exact(issues, path);
    const fallback = schema.default !== undefined ? `Default (${String(schema.default)})` : required ? 'Choose…' : 'None';
    return (
      <FieldShell id={id} label={label} hint={hint} errors={errors}>
        <select
          id={id}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => {
            const text = (e.currentTarget as HTMLSelectElement).value;
            onChange(text === '' ? undefined : schema.enum!.find((option) => String(option) === text));
          }}
          aria-describedby={describedBy(id, hint, errors)}
          aria-invalid={errors ? true : undefined}
        >
          <option value="">{fallback}</option>
          {schema.enum.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      </FieldShell>
    );
  }

  if (types.length === 1 && types[0] === 'boolean') {
    const checked = value === undefined ? schema.default === true : value === true;
    return <CheckboxField id={id} label={schema.title ?? humanize(name)} checked={checked} hint={hint} errors={exact(issues, path)} onChange={onChange} />;
  }

  if (types.length === 1 && types[0] === 'object' && schema.properties) {
    const errors = exact(issues, path);
    return (
      <fieldset id={id} aria-describedby={describedBy(id, hint, errors)}>
        <legend>{label}</legend>
        {hint ? (
          <p class="hint" id={`${id}-hint`}>
            {hint}
          </p>
        ) : null}
        {errors ? (
          <p class="field-error" id={`${id}-error`}>
            {errors.join('; ')}
          </p>
        ) : null}
        <ObjectFields
          schema={schema}
          path={path}
          value={value as Record<string, Value> | undefined}
          issues={issues}
          // An optional object left empty is left out, so untouched sections stay unset.
          onChange={(next) => onChange(Object.keys(next).length === 0 && !required ? undefined : next)}
        />
      </fieldset>
    );
  }

  if (types.length === 1 && types[0] === 'object' && typeof schema.additionalProperties === 'object' && isScalarSchema(schema.additionalProperties)) {
    return <MapField {...props} id={id} label={label} itemSchema={schema.additionalProperties} />;
  }

  if (types.length === 1 && types[0] === 'array' && schema.items && isScalarSchema(schema.items)) {
    return <ListField {...props} id={id} label={label} itemSchema={schema.items} />;
  }

  if (types.length === 1 && types[0] === 'array' && schema.items?.properties) {
    return <ObjectListField {...props} id={id} label={label} itemSchema={schema.items} />;
  }

  if (isScalarSchema(schema)) {
    const errors = within(issues, path);
    const numeric = types.every((t) => t === 'integer' || t === 'number');
    const long = (schema.maxLength ?? 0) > 1024;
    const placeholder = schema.default !== undefined ? `default ${String(schema.default)}` : undefined;
    // Uncontrolled: re-rendering parsed values would eat keystrokes (a trailing "." or space).
    const common = {
      id,
      name: id,
      defaultValue: scalarText(value),
      placeholder,
      'aria-describedby': describedBy(id, hint, errors),
      'aria-invalid': errors ? true : undefined,
      onInput: (e: Event) => {
        const text = (e.currentTarget as HTMLInputElement).value;
        onChange(text === '' ? undefined : parseScalar(text, schema));
      },
    };
    return (
      <FieldShell id={id} label={label} hint={hint} errors={errors}>
        {long ? <textarea {...common} /> : <input {...common} inputMode={numeric ? 'numeric' : undefined} autoComplete="off" />}
      </FieldShell>
    );
  }

  return <JsonField {...props} id={id} label={label} />;
}

type Extra = { id: string; label: string };

/** A list of scalars, one per line. */
function ListField({ schema, path, value, issues, onChange, id, label, itemSchema }: FieldProps & Extra & { itemSchema: JsonSchema }) {
  const errors = within(issues, path);
  const hint = `${schema.description ? `${schema.description} ` : ''}One per line.`;
  const text = Array.isArray(value) ? value.map(scalarText).join('\n') : '';
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      <textarea
        id={id}
        name={id}
        rows={3}
        defaultValue={text}
        placeholder={Array.isArray(schema.default) && schema.default.length ? `default: ${schema.default.join(', ')}` : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors ? true : undefined}
        onInput={(e) => {
          const lines = (e.currentTarget as HTMLTextAreaElement).value.split('\n');
          const items = lines.filter((line) => line.trim() !== '').map((line) => parseScalar(line.trim(), itemSchema));
          onChange(items.length ? items : lines.some((l) => l.trim()) ? items : undefined);
        }}
      />
    </FieldShell>
  );
}

/** A map of string keys to scalars, one `key: value` per line (request headers). */
function MapField({ schema, path, value, issues, onChange, id, label, itemSchema }: FieldProps & Extra & { itemSchema: JsonSchema }) {
  const errors = within(issues, path);
  const hint = `${schema.description ? `${schema.description} ` : ''}One “name: value” per line.`;
  const entries = value && typeof value === 'object' ? Object.entries(value as Record<string, Value>) : [];
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      <textarea
        id={id}
        name={id}
        rows={3}
        defaultValue={entries.map(([k, v]) => `${k}: ${scalarText(v)}`).join('\n')}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors ? true : undefined}
        onInput={(e) => {
          const map: Record<string, Value> = {};
          for (const line of (e.currentTarget as HTMLTextAreaElement).value.split('\n')) {
            if (!line.trim()) continue;
            const at = line.indexOf(':');
            const key = (at === -1 ? line : line.slice(0, at)).trim();
            map[key] = parseScalar(at === -1 ? '' : line.slice(at + 1).trim(), itemSchema);
          }
          onChange(Object.keys(map).length ? map : undefined);
        }}
      />
    </FieldShell>
  );
}

/** A list of objects: one fieldset per item, with add and remove. */
function ObjectListField({ schema, name, path, value, issues, onChange, label, itemSchema }: FieldProps & Extra & { itemSchema: JsonSchema }) {
  const items = Array.isArray(value) ? (value as Record<string, Value>[]) : [];
  const errors = exact(issues, path);
  const one = singular(humanize(name));
  const atMax = schema.maxItems !== undefined && items.length >= schema.maxItems;
  return (
    <fieldset>
      <legend>{label}</legend>
      {schema.description ? <p class="hint">{schema.description}</p> : null}
      {errors ? <p class="field-error">{errors.join('; ')}</p> : null}
      {items.map((item, index) => (
        <fieldset key={index}>
          <legend>
            {one} {index + 1}
          </legend>
          <ObjectFields
            schema={itemSchema}
            path={[...path, String(index)]}
            value={item}
            issues={issues}
            onChange={(next) => onChange(items.map((old, i) => (i === index ? next : old)))}
          />
          <button type="button" class="danger" onClick={() => onChange(items.filter((_, i) => i !== index))}>
            Remove {one} {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => onChange([...items, {}])} disabled={atMax}>
        Add {one}
      </button>
    </fieldset>
  );
}

/** Anything the generated controls do not cover, edited as JSON. */
function JsonField({ schema, path, value, issues, onChange, id, label }: FieldProps & Extra) {
  const errors = within(issues, path);
  const hint = `${schema.description ? `${schema.description} ` : ''}As JSON.`;
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      <textarea
        id={id}
        name={id}
        rows={4}
        defaultValue={value === undefined ? '' : JSON.stringify(value, null, 2)}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors ? true : undefined}
        onInput={(e) => {
          const text = (e.currentTarget as HTMLTextAreaElement).value;
          if (!text.trim()) return onChange(undefined);
          try {
            onChange(JSON.parse(text));
          } catch {
            onChange(text);
          }
        }}
      />
    </FieldShell>
  );
}
