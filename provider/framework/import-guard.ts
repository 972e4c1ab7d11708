// One object imported at one address and destroyed at another in the same plan (issue 47 item 4): what a
// configuration plans when an object it manages gets a new address without a `moved` block (a resource or for_each
// key renamed, a fleet exported again under new keys). Applied, the destroy deletes the object the import has
// just taken, so the plan is refused, naming `moved`. Terraform tells a provider neither address, but plans an
// import (ImportResourceState) and the destroy (PlanResourceChange, planned state null) in the same process, in
// no set order: whichever of the two comes second sees the first and fails. A destroy the resource refuses anyway
// (deletion protection) waits for a possible import before saying why, so that its message is `moved`, never "turn
// protection off" (which would lead straight to deleting the object). Tested over every order by
// the property in test/provider/export-keys.test.ts.
import type { AttributePath, Diagnostics } from "./diagnostics.js";

/** How long a refused destroy waits for the import of its object, at most, while other calls keep coming. */
const MAX_SETTLE_MS = 30_000;

/** What a settle waits for besides the import: the process going quiet (nothing but settles in flight, and no call
 * begun or ended for a moment), when Terraform has nothing more to ask before it has these answers. */
export type WhenQuiet = (signal: AbortSignal) => Promise<void>;

export class ImportGuard {
  readonly #imported = new Set<string>();
  readonly #destroyed = new Set<string>();
  readonly #waiters = new Map<string, (() => void)[]>();
  readonly #whenQuiet: WhenQuiet;

  constructor(whenQuiet: WhenQuiet) {
    this.#whenQuiet = whenQuiet;
  }

  /** Records that the plan imports `id` of `type`; true when it destroys the same object at another address. */
  imported(type: string, id: string): boolean {
    const key = `${type}\u0000${id}`;
    this.#imported.add(key);
    for (const wake of this.#waiters.get(key) ?? []) wake();
    this.#waiters.delete(key);
    return this.#destroyed.has(key);
  }

  /** Records that the plan destroys `id` of `type`; true when it imports the same object at another address. */
  destroying(type: string, id: string): boolean {
    const key = `${type}\u0000${id}`;
    this.#destroyed.add(key);
    return this.#imported.has(key);
  }

  /** Whether the plan both imports and destroys `id` of `type` (for the imported object's own plan). */
  both(type: string, id: string): boolean {
    const key = `${type}\u0000${id}`;
    return this.#imported.has(key) && this.#destroyed.has(key);
  }

  /**
   * Records a planned destroy and says whether the plan imports the same object at another address. A destroy the
   * resource `refused` (deletion protection) waits for that import first (settle), so that it is reported as what it
   * is rather than with the refusal's advice.
   */
  async destroyMoved(type: string, id: string, refused: boolean): Promise<boolean> {
    const moved = this.destroying(type, id);
    return moved || !refused ? moved : this.settle(type, id);
  }

  /**
   * For a destroy that will be refused: waits until `id` is imported (true), or the process is quiet or
   * MAX_SETTLE_MS passed (false). Call destroying() first.
   */
  async settle(type: string, id: string): Promise<boolean> {
    const key = `${type}\u0000${id}`;
    if (this.#imported.has(key)) return true;
    const stop = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const imported = new Promise<boolean>((resolve) => this.#waiters.set(key, [...(this.#waiters.get(key) ?? []), () => resolve(true)]));
    const quiet = this.#whenQuiet(stop.signal).then(
      () => false,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), MAX_SETTLE_MS)));
    try {
      return await Promise.race([imported, quiet, timeout]);
    } finally {
      clearTimeout(timer);
      stop.abort();
    }
  }
}

/** How long the process must have had no call but settles before a settle ends: Terraform sends a node's next call
 * within milliseconds of the last answer, so this much silence means it waits for the settles' answers. */
const QUIET_MS = 250;

/** The provider's calls in flight and when the last one began or ended (provider-server.ts counts every RPC). */
export class CallActivity {
  #inFlight = 0;
  #settling = 0;
  #last = Date.now();

  begin(): void {
    this.#inFlight++;
    this.#last = Date.now();
  }

  end(): void {
    this.#inFlight--;
    this.#last = Date.now();
  }

  /** Resolves once no call but settles has been in flight, and none began or ended, for QUIET_MS. */
  readonly whenQuiet: WhenQuiet = async (signal) => {
    this.#settling++;
    try {
      for (;;) {
        const idle = Date.now() - this.#last;
        if (this.#inFlight <= this.#settling && idle >= QUIET_MS) return;
        await pause(Math.max(10, QUIET_MS - idle), signal);
      }
    } finally {
      this.#settling--;
    }
  };
}

/**
 * The error on either side of an object imported at one address and destroyed at another: on the destroy's plan,
 * on the import, or on the imported object's plan (when its destroy came between). Terraform prints the address of
 * a plan's error in its "with" line, not an import's; the message says where to find each.
 */
export function movedError(diags: Diagnostics, side: "destroy" | "import" | "imported", type: string, id: string, at?: AttributePath): void {
  const here = side === "destroy" ? "destroys" : "imports";
  const there = side === "destroy" ? "imports" : "destroys";
  const thisAddress = 'this error\'s address, in the "with" line above';
  const from = side === "destroy" ? thisAddress : `the address that holds ${id} now: \`terraform state list -id=${id}\` prints it`;
  const to =
    side === "imported" ? thisAddress : `the \`to\` of the import block with id = "${id}" (Terraform's "Preparing import... [id=${id}]" line names it)`;
  diags.error(
    `This plan ${here} ${type} ${id} here and ${there} it at another address`,
    "It is one object at two addresses: its address changed in the configuration (a resource or for_each key renamed, " +
      `a site renamed and exported again under a new key). Applied, the plan would delete ${id} at its old address and ` +
      "leave the new one on a deleted object. Tell Terraform it moved instead, with this block beside the import block " +
      "(which then imports nothing):\n\nmoved {\n  from = <FROM>\n  to   = <TO>\n}\n\n" +
      `FROM is ${from}; TO is ${to}. The plan then moves it, and destroys nothing. ` +
      "`siteops export terraform --out FILE --force` over the earlier file (or `--keys-from` it) keeps each object's key, so that exporting again moves nothing.",
    at,
  );
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
