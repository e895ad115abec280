import type { Article } from '@portal/contracts';
import type { ComponentType } from 'react';

/**
 * The pickers one feature hands another through its route (features never import each other): the
 * recipients feature's recipient picker goes into the article and invoice forms, the articles
 * feature's article finder into the invoice form. These are the props both sides agree on.
 */
export interface PickedRecipient {
  recipientID: string;
  name: string;
}

export interface RecipientPickerProps {
  label: string;
  value: PickedRecipient | null;
  onChange: (value: PickedRecipient | null) => void;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  hint?: string;
  required?: boolean;
}
export type RecipientPickerComponent = ComponentType<RecipientPickerProps>;

export interface ArticlePickerProps {
  label: string;
  /** Called with the chosen article; the search box then empties for the next one. */
  onPick: (article: Article) => void;
  hint?: string;
  /** Shown when the search matches no article. */
  noMatchesText: string;
}
export type ArticlePickerComponent = ComponentType<ArticlePickerProps>;
