// Logging for a plugin: stderr only (stdout belongs to the go-plugin handshake), as go-hclog JSON lines so
// Terraform shows them with its own logs, filtered by TF_LOG_PROVIDER or TF_LOG like a Go provider's.
const LEVELS = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 } as const;
type Level = Exclude<keyof typeof LEVELS, "off">;

function threshold(): number {
  const raw = (process.env.TF_LOG_PROVIDER || process.env.TF_LOG || "").toLowerCase();
  if (!raw) return LEVELS.off;
  if (raw === "json" || raw === "1" || raw === "true") return LEVELS.trace;
  return raw in LEVELS ? LEVELS[raw as keyof typeof LEVELS] : LEVELS.trace;
}

const min = threshold();

/** go-plugin parses a JSON line as a log entry (level, message) only with hclog's timestamp layout, which has
 * six fraction digits ("2006-01-02T15:04:05.000000Z07:00"); with toISOString()'s three it logs the whole line
 * at DEBUG, so a warning would not show under TF_LOG_PROVIDER=WARN. */
const timestamp = () => new Date().toISOString().replace(/Z$/, "000Z");

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < min) return;
  process.stderr.write(JSON.stringify({ "@level": level, "@message": message, "@module": "provider.siteops", "@timestamp": timestamp(), ...fields }) + "\n");
}

export const log = {
  /** Whether messages of this level are written: skip building costly fields when not. */
  enabled: (level: Level) => LEVELS[level] >= min,
  trace: (m: string, f?: Record<string, unknown>) => write("trace", m, f),
  debug: (m: string, f?: Record<string, unknown>) => write("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => write("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => write("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => write("error", m, f),
};
