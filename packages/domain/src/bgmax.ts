/**
 * BGMAX, Bankgirot's "Bankgiro Inbetalningar" payment file (shared/domain/bgmax.md): the typed model,
 * the reader (`readBgmax`) and the writer (`writeBgmax`, `writeBgmaxSettlement`). Subpath export
 * `@portal/domain/bgmax`.
 */
export * from './bgmax-model';
export * from './bgmax-reader';
export * from './bgmax-writer';
