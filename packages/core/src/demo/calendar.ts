/**
 * The demo calendar of Riverside, a small town: venues, organizers and about forty events over the coming
 * months (day offsets from today), with all-day and multi-day events, costs, a few drafts and past events.
 */
export interface DemoVenue {
  key: string;
  venue: string;
  description: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone?: string;
  website?: string;
}

export interface DemoOrganizer {
  key: string;
  organizer: string;
  description: string;
  email: string;
  phone?: string;
  website?: string;
}

export interface DemoEvent {
  title: string;
  description: string;
  excerpt?: string;
  /** Days from today, and the local start time. */
  day: number;
  /** Moves the day forward to this weekday (1 Monday … 7 Sunday), for events named or tagged by their day. */
  weekday?: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  start: string;
  /** Duration in minutes, or whole days for all-day events. */
  minutes?: number;
  days?: number;
  allDay?: boolean;
  venue?: string;
  organizers?: string[];
  categories?: string[];
  tags?: string[];
  cost?: string | string[];
  featured?: boolean;
  status?: 'draft' | 'pending';
  hidden?: boolean;
  website?: string;
}

export const DEMO_VENUES: DemoVenue[] = [
  { key: 'hall', venue: 'Riverside Concert Hall', description: 'A 900-seat hall on the east bank with excellent acoustics.', address: '12 Quay Street', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States', phone: '+1 541 555 0140', website: 'https://example.org/concert-hall' },
  { key: 'mill', venue: 'Old Mill Arts Centre', description: 'Studios and a black-box theatre in the restored flour mill.', address: '3 Mill Lane', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States', phone: '+1 541 555 0162' },
  { key: 'park', venue: 'Harbour Park', description: 'Lawns, a bandstand and the waterfront promenade.', address: 'Harbour Road', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States' },
  { key: 'library', venue: 'Central Library', description: 'Reading rooms, a makerspace and the community room.', address: '40 Main Street', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States', phone: '+1 541 555 0101', website: 'https://example.org/library' },
  { key: 'square', venue: 'Market Square', description: 'The town square, home of the Saturday market.', address: 'Market Square', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States' },
  { key: 'club', venue: 'The Blue Note', description: 'A small jazz club with a late licence.', address: '7 Canal Walk', city: 'Riverside', state: 'OR', zip: '97031', country: 'United States', website: 'https://example.org/blue-note' },
  { key: 'ground', venue: 'Riverside Sports Ground', description: 'Track, pitches and the club house.', address: '1 Stadium Way', city: 'Riverside', state: 'OR', zip: '97032', country: 'United States' },
];

export const DEMO_ORGANIZERS: DemoOrganizer[] = [
  { key: 'arts', organizer: 'Riverside Arts Council', description: 'Keeps the town busy with music and theatre.', email: 'hello@riverside-arts.example', phone: '+1 541 555 0199', website: 'https://example.org/arts-council' },
  { key: 'library', organizer: 'Friends of the Library', description: 'Volunteers running talks, clubs and workshops.', email: 'friends@library.example' },
  { key: 'market', organizer: 'Harbour Makers Market', description: 'Local growers and makers.', email: 'stalls@makers-market.example', website: 'https://example.org/makers-market' },
  { key: 'runners', organizer: 'Riverside Runners', description: 'A friendly club for all paces.', email: 'run@riverside-runners.example' },
  { key: 'bluenote', organizer: 'Blue Note Presents', description: 'Booking jazz since 1998.', email: 'bookings@bluenote.example', phone: '+1 541 555 0177' },
];

const SATURDAY = 6;

const markets: DemoEvent[] = [3, 10, 17, 24, 31, 38, 45, 52].map((day) => ({
  title: 'Saturday Makers Market',
  description: 'Fresh produce, bread, crafts and street food from forty local stalls.',
  day,
  weekday: SATURDAY,
  start: '08:00',
  minutes: 300,
  venue: 'square',
  organizers: ['market'],
  categories: ['Markets', 'Family'],
  tags: ['Free entry', 'Outdoor', 'Weekend'],
  cost: 'Free',
}));

const jazz: DemoEvent[] = [5, 19, 33, 47, 61, 75].map((day, i) => ({
  title: `Jazz at the Blue Note: ${['Trio Nights', 'Big Band Swing', 'Latin Session', 'Vocal Standards', 'New Voices', 'Late Night Jam'][i]}`,
  description: 'Two sets of live jazz. Doors open at 7pm; table service all night.',
  excerpt: 'Live jazz in the Blue Note.',
  day,
  start: '20:00',
  minutes: 180,
  venue: 'club',
  organizers: ['bluenote'],
  categories: ['Jazz'],
  tags: ['Evening'],
  cost: ['$15', '$25'],
  featured: i === 0,
}));

export const DEMO_EVENTS: DemoEvent[] = [
  ...markets,
  ...jazz,
  { title: 'Riverside Symphony: Autumn Gala', description: 'Dvořák’s New World Symphony and a premiere by a local composer.', day: 12, start: '19:30', minutes: 150, venue: 'hall', organizers: ['arts'], categories: ['Classical'], tags: ['Evening', 'Accessible'], cost: ['$20', '$45'], featured: true },
  { title: 'Winter Folk Festival', description: 'Three days of folk music on two stages, with ceilidhs every night.', day: 26, weekday: 5, start: '00:00', days: 3, allDay: true, venue: 'park', organizers: ['arts'], categories: ['Folk'], tags: ['Outdoor', 'Weekend'], cost: '$35', featured: true },
  { title: 'Beginners’ Pottery Workshop', description: 'Learn to throw a bowl on the wheel. All materials included.', day: 8, start: '10:00', minutes: 180, venue: 'mill', organizers: ['arts'], categories: ['Workshops'], tags: ['Accessible'], cost: '$45' },
  { title: 'Watercolour for Everyone', description: 'A relaxed afternoon of painting the harbour.', day: 22, start: '14:00', minutes: 150, venue: 'mill', organizers: ['arts'], categories: ['Workshops'], cost: '$30' },
  { title: 'Repair Café', description: 'Bring broken lamps, toasters and jumpers; volunteers help you fix them.', day: 14, start: '10:00', minutes: 240, venue: 'library', organizers: ['library'], categories: ['Workshops', 'Family'], tags: ['Free entry'], cost: 'Free' },
  { title: 'Code Club for Kids', description: 'Scratch and Python for ages 8–12. Laptops provided.', day: 6, start: '16:00', minutes: 90, venue: 'library', organizers: ['library'], categories: ['Family'], tags: ['Kids', 'Free entry'], cost: 'Free' },
  { title: 'Code Club for Kids', description: 'Scratch and Python for ages 8–12. Laptops provided.', day: 20, start: '16:00', minutes: 90, venue: 'library', organizers: ['library'], categories: ['Family'], tags: ['Kids', 'Free entry'], cost: 'Free' },
  { title: 'Author Talk: Rivers of the West', description: 'A historian on the towns that grew up along the river.', day: 16, start: '18:30', minutes: 90, venue: 'library', organizers: ['library'], categories: ['Family'], tags: ['Evening', 'Accessible'], cost: '$5' },
  { title: 'A Midsummer Night’s Dream', description: 'The Mill Players’ new production, four nights only.', day: 36, start: '19:30', minutes: 60 * 24 * 3 + 150, venue: 'mill', organizers: ['arts'], categories: ['Theatre'], tags: ['Evening'], cost: ['$12', '$18'] },
  { title: 'Harbour 10K', description: 'A flat, fast loop along the waterfront. Chip timing and medals.', day: 41, weekday: 7, start: '09:00', minutes: 180, venue: 'ground', organizers: ['runners'], categories: ['Sports'], tags: ['Outdoor', 'Weekend'], cost: '$25' },
  { title: 'Parkrun Social', description: 'Coffee and cake after the weekly run.', day: 9, weekday: SATURDAY, start: '09:00', minutes: 120, venue: 'park', organizers: ['runners'], categories: ['Sports'], tags: ['Free entry', 'Outdoor', 'Weekend'], cost: 'Free' },
  { title: 'New Year’s Eve Fireworks', description: 'Music from 10pm and fireworks over the harbour at midnight.', day: 58, start: '22:00', minutes: 150, venue: 'park', organizers: ['arts'], categories: ['Family'], tags: ['Free entry', 'Outdoor', 'Evening'], cost: 'Free', featured: true },
  { title: 'Chamber Music Matinee', description: 'Haydn and Brahms string quartets.', day: 68, start: '15:00', minutes: 120, venue: 'hall', organizers: ['arts'], categories: ['Classical'], tags: ['Accessible'], cost: '$18' },
  { title: 'Open Mic Night', description: 'Poetry, songs and comedy. Sign up at the bar.', day: 30, start: '19:00', minutes: 180, venue: 'club', organizers: ['bluenote'], categories: ['Music'], tags: ['Evening', 'Free entry'], cost: '0' },
  { title: 'Spring Plant Swap', description: 'Bring cuttings, take cuttings.', day: 95, start: '11:00', minutes: 180, venue: 'square', organizers: ['market'], categories: ['Markets'], tags: ['Free entry', 'Outdoor'], cost: 'Free' },
  { title: 'Online: Archive Tour', description: 'A live video tour of the town archive.', day: 11, start: '12:30', minutes: 60, venue: 'library', organizers: ['library'], categories: ['Family'], tags: ['Online', 'Free entry'] },
  { title: 'Summer Concert Series (draft)', description: 'Programme to be announced.', day: 120, start: '19:00', minutes: 120, venue: 'park', organizers: ['arts'], categories: ['Music'], status: 'draft' },
  { title: 'Volunteer Briefing', description: 'For market stewards only.', day: 2, start: '07:00', minutes: 45, venue: 'square', organizers: ['market'], categories: ['Markets'], hidden: true },
  { title: 'Theatre Auditions', description: 'Auditions for the spring show (details to follow).', day: 50, start: '18:00', minutes: 120, venue: 'mill', organizers: ['arts'], categories: ['Theatre'], status: 'pending' },
  { title: 'Harvest Supper', description: 'A long-table dinner in the square.', day: -20, start: '18:00', minutes: 180, venue: 'square', organizers: ['market'], categories: ['Family'], cost: '$30' },
  { title: 'Summer Jazz Picnic', description: 'Last summer’s picnic on the lawn.', day: -120, start: '13:00', minutes: 240, venue: 'park', organizers: ['bluenote'], categories: ['Jazz'], tags: ['Outdoor'], cost: 'Free' },
];

export const DEMO_CATEGORIES: Array<{ name: string; description: string; children?: string[] }> = [
  { name: 'Music', description: 'Concerts & gigs', children: ['Jazz', 'Classical', 'Folk'] },
  { name: 'Workshops', description: 'Learn something hands-on' },
  { name: 'Markets', description: 'Farmers, makers and flea markets' },
  { name: 'Family', description: 'Fun for all ages' },
  { name: 'Theatre', description: 'Plays, musicals and readings' },
  { name: 'Sports', description: 'Runs, rides and matches' },
];

export const DEMO_TAGS = ['Free entry', 'Outdoor', 'Weekend', 'Accessible', 'Kids', 'Evening', 'Online'];
