// app/interaction/[uid]/page.tsx (owned by another change) imports the sign-in card from here; the card is the kit's.
export { AuthCard } from './ui/card';
