import type { Article } from '@portal/contracts';
import type { ComponentType } from 'react';
import type { PickedRecipient } from '../utils/invoice-form';

/** What the invoice form needs from a recipient chooser; the route passes the recipients feature's. */
export interface RecipientPickerSlotProps {
  label: string;
  value: PickedRecipient | null;
  onChange: (value: PickedRecipient | null) => void;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  hint?: string;
  required?: boolean;
}

/** What the invoice form needs from an article finder; the route passes the articles feature's. */
export interface ArticlePickerSlotProps {
  label: string;
  onPick: (article: Article) => void;
  hint?: string;
  noMatchesText: string;
}

export interface InvoicePickers {
  RecipientPicker: ComponentType<RecipientPickerSlotProps>;
  ArticlePicker: ComponentType<ArticlePickerSlotProps>;
}
