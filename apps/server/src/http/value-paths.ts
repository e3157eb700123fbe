/** Where a value sits, linked to its parent's place: a step deeper costs one object, not a copied path. */
interface Place {
  key: string;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): string[] {
  const path: string[] = [];
  for (let at = place; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The paths (each a list of keys and indexes, [] for the value itself) of every leaf of a parsed
 * request value (a JSON body, the query, the path's parameters) that `picks`, and of every key it
 * picks (as a string): one walk for the checks that must see the whole value, whatever its shape.
 * Iterative, so a deeply nested body cannot overflow the stack; in document order.
 */
export function pathsWhere(value: unknown, picks: (leaf: unknown) => boolean): string[][] {
  const found: string[][] = [];
  const stack: Array<[unknown, Place | undefined]> = [[value, undefined]];
  while (stack.length > 0) {
    const [current, place] = stack.pop() as [unknown, Place | undefined];
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push([current[i], { key: String(i), parent: place }]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        const childPlace = { key, parent: place };
        // A picked key is reported where it is; its value is walked all the same.
        if (picks(key)) found.push(pathOf(childPlace));
        stack.push([child, childPlace]);
      }
    } else if (picks(current)) {
      found.push(pathOf(place));
    }
  }
  return found;
}
