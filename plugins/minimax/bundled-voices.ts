/**
 * A few documented MiniMax system voices, used only when `POST /v1/get_voice` fails, so a
 * gateway with a temporarily failing list still offers the common ids. Names follow MiniMax's
 * list (the older Mandarin voices are named in Chinese there).
 */
export const BUNDLED_SYSTEM_VOICES: readonly { readonly voice_id: string; readonly voice_name: string }[] = [
  { voice_id: 'English_Graceful_Lady', voice_name: 'Graceful Lady' },
  { voice_id: 'English_Insightful_Speaker', voice_name: 'Insightful Speaker' },
  { voice_id: 'English_radiant_girl', voice_name: 'Radiant Girl' },
  { voice_id: 'English_Persuasive_Man', voice_name: 'Persuasive Man' },
  { voice_id: 'English_expressive_narrator', voice_name: 'Expressive Narrator' },
  { voice_id: 'English_CalmWoman', voice_name: 'Calm Woman' },
  { voice_id: 'English_ManWithDeepVoice', voice_name: 'Man With Deep Voice' },
  { voice_id: 'English_Wiselady', voice_name: 'Wise Lady' },
  { voice_id: 'English_Upbeat_Woman', voice_name: 'Upbeat Woman' },
  { voice_id: 'Chinese (Mandarin)_Reliable_Executive', voice_name: 'Reliable Executive' },
  { voice_id: 'Chinese (Mandarin)_News_Anchor', voice_name: 'News Anchor' },
  { voice_id: 'Chinese (Mandarin)_Gentleman', voice_name: 'Gentleman' },
  { voice_id: 'Chinese (Mandarin)_Warm_Girl', voice_name: 'Warm Girl' },
  { voice_id: 'Chinese (Mandarin)_Sweet_Lady', voice_name: 'Sweet Lady' },
  { voice_id: 'Japanese_IntellectualSenior', voice_name: 'Intellectual Senior' },
  { voice_id: 'Japanese_DecisivePrincess', voice_name: 'Decisive Princess' },
  { voice_id: 'Korean_SweetGirl', voice_name: 'Sweet Girl' },
  { voice_id: 'male-qn-qingse', voice_name: '青涩青年音色' },
  { voice_id: 'male-qn-jingying', voice_name: '精英青年音色' },
  { voice_id: 'male-qn-badao', voice_name: '霸道青年音色' },
  { voice_id: 'male-qn-daxuesheng', voice_name: '青年大学生音色' },
  { voice_id: 'female-shaonv', voice_name: '少女音色' },
  { voice_id: 'female-yujie', voice_name: '御姐音色' },
  { voice_id: 'female-chengshu', voice_name: '成熟女性音色' },
  { voice_id: 'female-tianmei', voice_name: '甜美女性音色' },
  { voice_id: 'presenter_male', voice_name: '男性主持人' },
  { voice_id: 'presenter_female', voice_name: '女性主持人' },
  { voice_id: 'audiobook_male_1', voice_name: '男性有声书1' },
  { voice_id: 'audiobook_female_1', voice_name: '女性有声书1' },
];
