export type { AudioStore, ByteRange, LocatedAudio, ReadOptions, SaveAudioOptions, SavedAudio } from './audio-store';
export { readStoredAudio } from './read-stored-audio';
export { FileSystemAudioStore, type FileSystemAudioStoreOptions, type LocatedFile } from './file-system-audio-store';
export { S3AudioStore, type S3AudioStoreOptions } from './s3-audio-store';
export { AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from './audio-file-name';
export type { StoredBytes } from './owner-ledger';
export { StorageQuota } from './storage-quota';
export { storageTimedOut } from './storage-failure';
