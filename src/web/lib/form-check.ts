import type { z } from 'zod';

/** One problem a schema found in a form: the field, the schema's message, and whether it was left empty. */
export type FormIssue = { field: string; message: string; missing: boolean };

export type FormCheck<S extends z.ZodType> = { ok: true; data: z.output<S> } | { ok: false; issues: FormIssue[] };

/**
 * Checks a form's values with the same schema the server parses the body with (src/common), so
 * the browser and the server refuse the same input with the same message. A field counts as
 * missing when it is empty, or when it holds only what the schema trims away.
 */
export function checkForm<S extends z.ZodType>(schema: S, values: z.input<S>): FormCheck<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const raw = values as Record<string, unknown>;
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '');
      const value = raw[field];
      const trimmedAway = issue.code === 'too_small' && issue.minimum === 1;
      return { field, message: issue.message, missing: value === undefined || value === '' || trimmedAway };
    }),
  };
}
