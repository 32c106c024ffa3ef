import { postTypeCaps } from '../../auth/roles.js';

/** WordPress core's namespace: siterest serves its `media` routes (every TEC client uploads images there). */
export const MEDIA_NAMESPACE = 'wp/v2';

/** Attachments use the `post` capabilities, except that creating one takes `upload_files`. */
export const ATTACHMENT_CAPS = { ...postTypeCaps('post', 'posts'), create_posts: 'upload_files' };

/** Longest title, caption, description or alt text accepted (characters). */
export const MAX_TEXT = 65_535;
