import { createContext } from 'react';

/**
 * The signed-in user's abilities from `self`, provided by the root layout once it has loaded them, for
 * the permission guard of the routes under it (guards.tsx). Empty outside the layout.
 */
export const AbilitiesContext = createContext<readonly string[]>([]);
