export type { AudioStore, LocatedAudio, SaveAudioOptions, SavedAudio } from './audio-store';
export { FileSystemAudioStore, type FileSystemAudioStoreOptions } from './file-system-audio-store';
