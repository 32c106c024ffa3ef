import { ApiError } from '../../http/api-error.js';

/** The Events Calendar's REST error codes and messages, one place for the namespace. */
export const calendarErrors = {
  // WordPress's posts controller (check_assign_author, handle_status_param), which TEC's routes skip.
  cannotEditOthers: (mode: 'create' | 'update', status: 401 | 403) =>
    new ApiError('rest_cannot_edit_others', `Sorry, you are not allowed to ${mode} posts as this user.`, status),
  cannotCreatePrivate: (status: 401 | 403) =>
    new ApiError('rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.', status),
  eventNotFound: (id: number | string) => new ApiError('rest-event-not-found', `Event with ID ${id} does not exist.`, 404),
  invalidEventId: () => new ApiError('rest-invalid-event-id', 'The specified ID is not a valid event.', 400),
  eventNoLongerAvailable: () => new ApiError('event-no-longer-available', 'This event is no longer available', 403),
  eventNotAccessible: () => new ApiError('event-not-accessible', 'The requested event is not accessible', 403),
  eventPasswordProtected: () =>
    new ApiError('event-password-protected', 'The requested event is not accessible without a password', 403),
  eventInTrash: () => new ApiError('event-is-in-trash', 'The event is already trashed', 410),
  couldNotDeleteEvent: () => new ApiError('could-not-delete-event', 'The event could not be deleted', 500),
  couldNotUpdateEvent: () => new ApiError('could-not-update-event', 'The event could not be updated', 403),
  eventArchivePageNotFound: () =>
    new ApiError('event-archive-page-not-found', 'The requested event archive page does not exist', 404),
  venueArchivePageNotFound: () =>
    new ApiError('venue-archive-page-not-found', 'The requested venue archive page does not exist', 404),
  organizerArchivePageNotFound: () =>
    new ApiError('organizer-archive-page-not-found', 'The requested organizer archive page does not exist', 404),
  venueNotAccessible: () => new ApiError('venue-not-accessible', 'The requested venue is not accessible', 403),
  organizerNotAccessible: () => new ApiError('organizer-not-accessible', 'The requested organizer is not accessible', 403),
  venueInTrash: () => new ApiError('venue-is-in-trash', 'The venue is already trashed', 410),
  organizerInTrash: () => new ApiError('organizer-is-in-trash', 'The organizer is already trashed', 410),
  couldNotDeleteVenue: () => new ApiError('could-not-delete-venue', 'The venue could not be deleted', 500),
  couldNotDeleteOrganizer: () => new ApiError('could-not-delete-organizer', 'The organizer could not be deleted', 500),
  couldNotCreateVenue: () =>
    new ApiError('could-not-create-venue', 'The venue could not be created from the provided data', 400),
  couldNotCreateOrganizer: () =>
    new ApiError('could-not-create-organizer', 'The organizer could not be created from the provided data', 400),
  couldNotUpdateVenue: () => new ApiError('could-not-update-venue', 'The venue could not be updated', 400),
  couldNotUpdateOrganizer: () => new ApiError('could-not-update-organizer', 'The organizer could not be updated', 400),
  invalidLinkedPostId: () => new ApiError('invalid-linked-post-id', 'The provided linked post ID is not valid', 400),
  ticketsNotActive: () => ApiError.detail('event-tickets-not-active', 'Event Tickets plugin is not activated.'),
  // WordPress terms controller codes reached through the category and tag routes.
  termExists: (hierarchical: boolean, termId: number) =>
    new ApiError(
      'term_exists',
      hierarchical
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.',
      400,
      { term_id: termId },
      { additionalData: [termId, termId] },
    ),
  taxonomyNotHierarchical: () =>
    new ApiError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400),
  parentTermInvalid: () => new ApiError('rest_term_invalid', 'Parent term does not exist.', 400),
  emptyTermName: () => new ApiError('empty_term_name', 'A name is required for this term.', 400),
  /** WordPress fails the insert (its column holds 200 characters) with this code and a 500; here it is the client's 400. */
  termNameTooLong: () => new ApiError('db_insert_error', 'Could not insert term into the database.', 400),
  duplicateTermSlug: (slug: string) =>
    new ApiError('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400),
  termParentLoop: () => new ApiError('rest_term_invalid_parent', 'A term cannot be its own ancestor.', 400),
  termsOfPostForbidden: (status: 401 | 403) =>
    new ApiError('rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.', status),
} as const;
