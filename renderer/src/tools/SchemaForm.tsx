import { type FormEvent, useMemo, useState } from 'react';
import {
  type Field,
  type FieldValue,
  type FormValues,
  fieldsFromSchema,
  initialValues,
  parseRawArgs,
  toArgs,
  valuesFromArgs,
} from './schema-model.js';

export interface SessionChoice {
  id: string;
  label: string;
}

/**
 * A form generated from a tool's input JSON Schema, with a raw-JSON editor as the fallback (and the
 * only editor when the schema is beyond what the form can show). Calls `onSubmit` with valid args.
 */
export function SchemaForm({
  schema,
  onSubmit,
  busy = false,
  submitLabel = 'Run',
  destructive = false,
  sessions = [],
  initialArgs,
}: {
  /** Arguments to start from (a call being run again). */
  initialArgs?: Record<string, unknown>;
  schema: unknown;
  onSubmit(args: Record<string, unknown>): void;
  busy?: boolean;
  submitLabel?: string;
  /** The tool deletes or overwrites something: its Run button is not the form's main, inviting button. */
  destructive?: boolean;
  sessions?: SessionChoice[];
}) {
  const fields = useMemo(() => fieldsFromSchema(schema), [schema]);
  const prefilled = useMemo(
    () => (fields && initialArgs ? valuesFromArgs(fields, initialArgs) : undefined),
    [fields, initialArgs],
  );
  const [values, setValues] = useState<FormValues>(() => prefilled ?? (fields ? initialValues(fields) : {}));
  const [raw, setRaw] = useState<string | undefined>(() =>
    initialArgs && !prefilled ? JSON.stringify(initialArgs, null, 2) : fields ? undefined : '{}',
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (raw !== undefined) {
      const parsed = parseRawArgs(raw);
      setFormError(parsed.error);
      if (parsed.args) onSubmit(parsed.args);
      return;
    }
    const result = toArgs(fields ?? [], values);
    setErrors(result.errors);
    const count = Object.keys(result.errors).length;
    setFormError(count > 0 ? `${count} field${count === 1 ? ' needs' : 's need'} attention` : undefined);
    if (count === 0) onSubmit(result.args);
  };

  const toggleRaw = () => {
    setFormError(undefined);
    if (raw === undefined) {
      setRaw(JSON.stringify(toArgs(fields ?? [], values).args, null, 2));
    } else if (fields) {
      setRaw(undefined);
    }
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Tool arguments" noValidate>
      {raw === undefined && fields ? (
        fields.length === 0 ? (
          <p className="muted">This tool takes no arguments.</p>
        ) : (
          <Fields
            fields={fields}
            values={values}
            errors={errors}
            sessions={sessions}
            onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
          />
        )
      ) : (
        <div className="field">
          <label htmlFor="raw-args">Arguments (JSON)</label>
          {!fields && <span className="hint">This schema is edited as JSON.</span>}
          <textarea
            id="raw-args"
            className="mono"
            rows={8}
            value={raw}
            spellCheck={false}
            onChange={(e) => setRaw(e.target.value)}
          />
        </div>
      )}
      {formError && (
        <div className="form-error" role="alert">
          {formError}
        </div>
      )}
      <div className="row">
        {/* aria-disabled, not disabled: a disabled button drops the focus, and Run keeps it while the tool runs. */}
        <button type="submit" className={destructive ? 'danger' : 'primary'} aria-disabled={busy || undefined}>
          {busy ? 'Running…' : submitLabel}
        </button>
        {fields && (
          <button type="button" className="link" onClick={toggleRaw}>
            {raw === undefined ? 'Edit as JSON' : 'Back to the form'}
          </button>
        )}
      </div>
    </form>
  );
}

function Fields({
  fields,
  values,
  errors,
  sessions,
  onChange,
}: {
  fields: Field[];
  values: FormValues;
  errors: Record<string, string>;
  sessions: SessionChoice[];
  onChange(name: string, value: FieldValue): void;
}) {
  return (
    <>
      {fields.map((field) => (
        <FieldInput
          key={field.path}
          field={field}
          value={values[field.name]}
          errors={errors}
          sessions={sessions}
          onChange={(value) => onChange(field.name, value)}
        />
      ))}
    </>
  );
}

function FieldInput({
  field,
  value,
  errors,
  sessions,
  onChange,
}: {
  field: Field;
  value: FieldValue | undefined;
  errors: Record<string, string>;
  sessions: SessionChoice[];
  onChange(value: FieldValue): void;
}) {
  const id = `field-${field.path}`;
  const error = errors[field.path];
  const text = typeof value === 'string' ? value : '';
  const label = (
    <label htmlFor={id}>
      {field.title}
      {field.required ? <span className="muted"> *</span> : <span className="muted small"> (optional)</span>}
    </label>
  );
  const hint = field.description && <span className="hint">{field.description}</span>;
  const err = error && <span className="error">{error}</span>;
  const invalid = error ? true : undefined;

  switch (field.kind) {
    case 'object':
      return (
        <fieldset>
          <legend>{field.title}</legend>
          {hint}
          <div className="form">
            <Fields
              fields={field.fields}
              values={typeof value === 'object' ? value : {}}
              errors={errors}
              sessions={sessions}
              onChange={(name, v) => onChange({ ...(typeof value === 'object' ? value : {}), [name]: v })}
            />
          </div>
        </fieldset>
      );
    case 'boolean':
      if (field.required || field.default !== undefined) {
        return (
          <div className="field">
            <label className="row">
              <input
                id={id}
                type="checkbox"
                checked={text === 'true'}
                onChange={(e) => onChange(e.target.checked ? 'true' : 'false')}
              />
              {field.title}
            </label>
            {hint}
            {err}
          </div>
        );
      }
      return (
        <div className="field">
          {label}
          <select id={id} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={invalid}>
            <option value="">(not set)</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
          {hint}
          {err}
        </div>
      );
    case 'enum':
      return (
        <div className="field">
          {label}
          <select id={id} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={invalid}>
            {(!field.required || text === '') && <option value="">{field.required ? '(choose)' : '(not set)'}</option>}
            {field.options.map((option) => (
              <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
                {typeof option === 'string' ? option : JSON.stringify(option)}
              </option>
            ))}
          </select>
          {hint}
          {err}
        </div>
      );
    case 'list':
    case 'json':
      return (
        <div className="field">
          {label}
          <textarea
            id={id}
            className="mono"
            rows={field.kind === 'json' ? 4 : 3}
            value={text}
            spellCheck={false}
            placeholder={field.kind === 'list' ? 'one value per line' : 'JSON'}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={invalid}
          />
          {hint}
          {err}
        </div>
      );
    case 'number':
      return (
        <div className="field">
          {label}
          <input
            id={id}
            type="text"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            value={text}
            placeholder={[field.minimum, field.maximum].some((n) => n !== undefined) ? range(field) : ''}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={invalid}
          />
          {hint}
          {err}
        </div>
      );
    case 'string': {
      const isSession = field.name === 'sessionId';
      return (
        <div className="field">
          {label}
          {field.multiline ? (
            <textarea id={id} rows={4} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={invalid} />
          ) : (
            <input
              id={id}
              type="text"
              value={text}
              list={isSession && sessions.length > 0 ? `${id}-sessions` : undefined}
              placeholder={isSession ? 'the one active session when left empty' : ''}
              onChange={(e) => onChange(e.target.value)}
              aria-invalid={invalid}
            />
          )}
          {isSession && sessions.length > 0 && (
            <datalist id={`${id}-sessions`}>
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </datalist>
          )}
          {hint}
          {err}
        </div>
      );
    }
  }
}

function range(field: Extract<Field, { kind: 'number' }>): string {
  if (field.minimum !== undefined && field.maximum !== undefined) return `${field.minimum} – ${field.maximum}`;
  if (field.minimum !== undefined) return `≥ ${field.minimum}`;
  return `≤ ${field.maximum}`;
}
