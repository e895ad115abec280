import type { ArticlePickerComponent, RecipientPickerComponent } from '../../../components/ui/picker-slots';

/** The pickers the invoice form uses; the route passes the recipients' and the articles' features'. */
export interface InvoicePickers {
  RecipientPicker: RecipientPickerComponent;
  ArticlePicker: ArticlePickerComponent;
}
