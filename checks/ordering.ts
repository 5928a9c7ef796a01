/** The comparison operators that order two values (the catalog's, but `contains`). */
export type OrderingOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** Whether `left operator right` holds, for two numbers or two texts. */
export function holds<T extends number | string>(left: T, operator: OrderingOperator, right: T): boolean {
  switch (operator) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
  }
}
