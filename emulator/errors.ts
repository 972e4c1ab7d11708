// Errors the routes throw; the app's error handler turns each into its JSON body (docs/design.md section 2).
export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.body = { error: message, ...extra };
    this.headers = headers;
  }
}

export const MESSAGES = {
  unauthenticated: "You need to sign in or sign up before continuing.",
  expired: "Signature has expired",
  revoked: "revoked token",
  invalidLogin: "Invalid email or password",
  otpRequired: "otp_attempt_required",
  otpWrong: "Incorrect verification code",
  forbidden: "You are not authorized to perform this action.",
  notFound: "Record not found",
  tooLarge: "Payload too large",
  unsupportedMedia: "Unsupported media type",
  internal: "Internal server error",
} as const;

export const notFound = (): HttpError => new HttpError(404, MESSAGES.notFound);
export const forbidden = (): HttpError => new HttpError(403, MESSAGES.forbidden);
export const unauthorized = (message: string = MESSAGES.unauthenticated): HttpError => new HttpError(401, message);
export const badRequest = (message: string): HttpError => new HttpError(400, message);
/** A 422 for a rule that is not about one field (illegal transition, conflict). */
export const unprocessable = (message: string): HttpError => new HttpError(422, message);

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Humanize a field path the way Rails does: "enabled_events" -> "Enabled events". */
function humanizeField(field: string): string {
  return capitalize(field.replace(/\.|_/g, " ").trim());
}

/** 422 `Validation failed: Name can't be blank, Url is invalid` with the field map. */
export function validationFailed(errors: FieldErrors): HttpError {
  const sentences = Object.entries(errors).flatMap(([field, msgs]) => msgs.map((m) => `${humanizeField(field)} ${m}`));
  return new HttpError(422, `Validation failed: ${sentences.join(", ")}`, { errors });
}

/** Collects field errors in a handler and throws them together. */
export class FieldErrorCollector {
  readonly errors: FieldErrors = {};
  add(field: string, message: string): this {
    (this.errors[field] ??= []).push(message);
    return this;
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw validationFailed(this.errors);
  }
}
