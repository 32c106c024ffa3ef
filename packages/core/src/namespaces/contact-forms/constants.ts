/** `contact-forms/v1` (Contact Form 7's `contact-form-7/v1`). */
export const CONTACT_FORMS_NAMESPACE = 'contact-forms/v1';

/** The post type forms are kept as (Contact Form 7's `wpcf7_contact_form`). */
export const CONTACT_FORM_TYPE = 'contact_form';

/** The SWV schema version Contact Form 7 6.1 reports. */
export const SWV_VERSION = 'Contact Form 7 SWV Schema 2024-02';

/** The default messages, in the order Contact Form 7 6.1 lists them (core, file uploads, then modules). */
export const DEFAULT_MESSAGES: ReadonlyArray<[string, string]> = [
  ['mail_sent_ok', 'Thank you for your message. It has been sent.'],
  ['mail_sent_ng', 'There was an error trying to send your message. Please try again later.'],
  ['validation_error', 'One or more fields have an error. Please check and try again.'],
  ['spam', 'There was an error trying to send your message. Please try again later.'],
  ['accept_terms', 'You must accept the terms and conditions before sending your message.'],
  ['invalid_required', 'Please fill out this field.'],
  ['invalid_too_long', 'This field has a too long input.'],
  ['invalid_too_short', 'This field has a too short input.'],
  ['upload_failed', 'There was an unknown error uploading the file.'],
  ['upload_file_type_invalid', 'You are not allowed to upload files of this type.'],
  ['upload_file_too_large', 'The uploaded file is too large.'],
  ['upload_failed_php_error', 'There was an error uploading the file.'],
  ['invalid_date', 'Please enter a date in YYYY-MM-DD format.'],
  ['date_too_early', 'This field has a too early date.'],
  ['date_too_late', 'This field has a too late date.'],
  ['invalid_number', 'Please enter a number.'],
  ['number_too_small', 'This field has a too small number.'],
  ['number_too_large', 'This field has a too large number.'],
  ['quiz_answer_not_correct', 'The answer to the quiz is incorrect.'],
  ['captcha_not_match', 'Your entered code is incorrect.'],
  ['invalid_email', 'Please enter an email address.'],
  ['invalid_url', 'Please enter a URL.'],
  ['invalid_tel', 'Please enter a telephone number.'],
];

export const MESSAGE_KEYS: ReadonlySet<string> = new Set(DEFAULT_MESSAGES.map(([key]) => key));

/** Largest form template, mail field and additional settings siterest stores (characters). */
export const MAX_TEMPLATE_LENGTH = 200_000;
