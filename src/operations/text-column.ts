// A result's table as data, for every fleet operation: each column's header and its cell's raw value. The core
// declares the columns of each result once; a surface renders them (the CLI's terminal table or tab-separated
// lines), cleaning, fitting and colouring the cells its own way.

/** A column of a result's table. */
export interface TextColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  align?: "right";
}
