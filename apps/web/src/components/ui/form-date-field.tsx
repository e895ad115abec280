import { DateField, type DateFieldProps } from './date-field';
import { boundField } from './form-fields';

// Not in date-field.tsx: the date range of the lists would then bring react-hook-form along.
/** A DateField bound to a react-hook-form field (form-fields.tsx): an ISO date, '' while incomplete. */
export const FormDateField = boundField<DateFieldProps, 'inputRef'>(DateField, 'inputRef');
