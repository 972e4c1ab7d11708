// Types for hpack.js (a devDependency without its own): the HPACK reference of the differential tests.
declare module "hpack.js" {
  interface Header {
    name: string;
    value: string;
    huffman?: boolean;
    neverIndex?: boolean;
    incremental?: boolean;
  }
  interface Compressor {
    write(headers: Header[]): void;
    read(): Buffer | null;
    updateTableSize(size: number): void;
  }
  interface Decompressor {
    write(block: Buffer): void;
    execute(): void;
    read(): { name: string; value: string } | null;
    on(event: "error", listener: (err: Error) => void): void;
  }
  const hpack: {
    compressor: { create(options: { table: { maxSize: number } }): Compressor };
    decompressor: { create(options: { table: { maxSize: number } }): Decompressor };
  };
  export default hpack;
}
