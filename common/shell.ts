// Words and commands as a POSIX shell reads them back: what siteops prints for a person to paste (the command that
// continues a stopped rollout, a chmod to run) works as printed, spaces and quotes in names included.

/** `word` as one shell word: as it is when it holds only safe characters, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A command line from its words, each quoted as needed. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
