/** What a text field must be, checked on submit (forms set `noValidate`: no browser bubble). */
export interface FieldRules {
  /** The message when it is empty (after trimming); absent: may be empty. */
  required?: string;
  minLength?: number;
  maxLength?: number;
  /** A pattern the (trimmed) value must match, and what to say when it does not. */
  pattern?: { regex: RegExp; problem: string };
  email?: boolean;
  /** An absolute http(s) URL; a string says what to say when it is not one. */
  url?: boolean | string;
}

// Deliberately loose, like the browser's own type=email check: the server has the last word.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The field's problem, in words for people, or undefined when it has none. */
export function problemOf(value: string, rules: FieldRules): string | undefined {
  const trimmed = value.trim();
  if (trimmed === "") return rules.required;
  if (rules.minLength !== undefined && value.length < rules.minLength) {
    return `Use at least ${rules.minLength} characters (now ${value.length}).`;
  }
  if (rules.maxLength !== undefined && value.length > rules.maxLength) {
    return `Use at most ${rules.maxLength} characters (now ${value.length}).`;
  }
  if (rules.pattern && !rules.pattern.regex.test(trimmed)) return rules.pattern.problem;
  if (rules.email && !EMAIL.test(trimmed)) return "Enter an email address, like name@example.com.";
  if (rules.url && !isHttpUrl(trimmed)) {
    return typeof rules.url === "string"
      ? rules.url
      : "Enter a full URL, like https://example.com/hooks.";
  }
  return undefined;
}

/** True for an absolute http(s) address. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
