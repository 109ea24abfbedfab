/** A Python literal as the action language allows it (never an expression). */
export type Literal = string | number | boolean | null | Literal[] | { [key: string]: Literal };
