/** The problems of a form's fields, by field name; a field without one is absent. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** True when `errors` names no problem. */
export const isValid = <K extends string>(errors: FieldErrors<K>): boolean =>
  Object.values(errors).every((e) => e === undefined);

/**
 * After a refused submit: moves focus to the form's first control marked `aria-invalid`, once
 * the errors have rendered (the next frame), so the error is read out with its field.
 */
export function focusFirstInvalid(form: HTMLElement | null | undefined): void {
  requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
