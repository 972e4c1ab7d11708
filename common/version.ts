/** Sent in User-Agent; kept in step with package.json by hand (no JSON import at runtime). */
export const VERSION = "0.1.0";
