/**
 * The engine's error types. Each names the thing to fix — the node (by name and op), the tensor,
 * or the field — so a user can act on the message alone. `name` is the class name. The autodiff
 * core imports nothing internal, so these do not extend the services' wire errors.
 */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A node failed validation: wrong input count, dtype, rank, attribute or shape. */
export class GraphError extends EngineError {
  constructor(
    readonly node: string,
    readonly op: string,
    detail: string,
  ) {
    super(`node '${node}' (${op}): ${detail}`);
  }
}

/** Shapes that cannot meet; thrown by shape helpers and rethrown by the graph as a GraphError. */
export class ShapeError extends EngineError {}

/** A backward rule is missing or broke its contract. */
export class AutodiffError extends EngineError {}

/** A feed or fetch does not match the graph's declared inputs, or the runtime refused the model. */
export class RuntimeError extends EngineError {}
