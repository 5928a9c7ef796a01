import type { ComponentChildren, JSX } from 'preact';

/** The ids an input points to with aria-describedby: its hint and its errors. */
export function describedBy(id: string, hint?: ComponentChildren, errors?: string[]): string | undefined {
  const ids = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** The hint and the server's errors under a control, with the ids `describedBy` points to. */
function HintAndErrors({ id, hint, errors }: { id: string; hint?: ComponentChildren; errors?: string[] }) {
  return (
    <>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p class="field-error" id={`${id}-error`}>
          {errors.join('; ')}
        </p>
      ) : null}
    </>
  );
}

interface ShellProps {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  errors?: string[];
  children: ComponentChildren;
}

/** Label, control, hint and the server's errors for the field, tied together for screen readers. */
export function FieldShell({ id, label, hint, errors, children }: ShellProps) {
  return (
    <div class={`field${errors?.length ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      <HintAndErrors id={id} hint={hint} errors={errors} />
    </div>
  );
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onInput'> & {
  id: string;
  label: ComponentChildren;
  value: string;
  onValue(value: string): void;
  hint?: ComponentChildren;
  errors?: string[];
};

/** A labelled text input. */
export function TextField({ id, label, value, onValue, hint, errors, ...rest }: InputProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      <input
        id={id}
        name={id}
        value={value}
        onInput={(event) => onValue((event.currentTarget as HTMLInputElement).value)}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors?.length ? true : undefined}
        {...rest}
      />
    </FieldShell>
  );
}

/** A labelled checkbox (label after the box, as people expect). */
export function CheckboxField(props: {
  id: string;
  label: ComponentChildren;
  checked: boolean;
  onChange(checked: boolean): void;
  hint?: ComponentChildren;
  errors?: string[];
}) {
  const { id, label, checked, onChange, hint, errors } = props;
  return (
    <div class={`field field-checkbox${errors?.length ? ' field-invalid' : ''}`}>
      <input
        type="checkbox"
        id={id}
        name={id}
        checked={checked}
        onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors?.length ? true : undefined}
      />
      <label for={id}>{label}</label>
      <HintAndErrors id={id} hint={hint} errors={errors} />
    </div>
  );
}

/** Server-side field problems by path, for forms to place next to their fields. */
export function issuesByPath(issues: { path: string; message: string }[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const issue of issues) map.set(issue.path, [...(map.get(issue.path) ?? []), issue.message]);
  return map;
}
