// Function names for addresses in a stripped Go executable (Terraform's release binaries have no symbol table):
// Go keeps its own function table, .gopclntab, for stack traces, and that table survives stripping. Reads the
// ELF section headers to find it, then its header (the layout of Go 1.20 and later, magic 0xfffffff1) and its
// sorted function entries. Used by bench/provider-timeline.bench.ts to say where Terraform's CPU goes.
import { readFileSync } from "node:fs";

/** Maps an address of the binary's code to the name of the Go function containing it. */
export type GoSymbolizer = (address: number) => string | undefined;

function sectionByName(elf: Buffer, name: string): Buffer | undefined {
  if (elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2) return undefined; // ELF, 64-bit
  const shoff = Number(elf.readBigUInt64LE(0x28));
  const shentsize = elf.readUInt16LE(0x3a);
  const shnum = elf.readUInt16LE(0x3c);
  const header = (i: number) => shoff + i * shentsize;
  const strtab = Number(elf.readBigUInt64LE(header(elf.readUInt16LE(0x3e)) + 0x18));
  for (let i = 0; i < shnum; i++) {
    const h = header(i);
    const nameAt = strtab + elf.readUInt32LE(h);
    if (elf.toString("latin1", nameAt, nameAt + name.length + 1) !== `${name}\0`) continue;
    const offset = Number(elf.readBigUInt64LE(h + 0x18));
    return elf.subarray(offset, offset + Number(elf.readBigUInt64LE(h + 0x20)));
  }
  return undefined;
}

/** A symbolizer for the Go executable at `file`, or undefined when it has no Go 1.20+ function table. */
export function goSymbolizer(file: string): GoSymbolizer | undefined {
  const tab = sectionByName(readFileSync(file), ".gopclntab");
  if (!tab || tab.readUInt32LE(0) !== 0xfffffff1 || tab[7] !== 8) return undefined;
  const word = (at: number) => Number(tab.readBigUInt64LE(at));
  const count = word(8);
  const textStart = word(24);
  const names = tab.subarray(word(32));
  const functab = tab.subarray(word(64));
  const entries = new Uint32Array(count);
  for (let i = 0; i < count; i++) entries[i] = functab.readUInt32LE(i * 8);
  const cache = new Map<number, string>();
  const nameOf = (i: number): string => {
    let name = cache.get(i);
    if (name === undefined) {
      const start = functab.readInt32LE(functab.readUInt32LE(i * 8 + 4) + 4);
      name = names.toString("latin1", start, names.indexOf(0, start));
      cache.set(i, name);
    }
    return name;
  };
  return (address) => {
    const offset = address - textStart;
    if (offset < 0 || count === 0) return undefined;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (entries[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return nameOf(lo);
  };
}
